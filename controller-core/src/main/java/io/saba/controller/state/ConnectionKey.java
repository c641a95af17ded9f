package io.saba.controller.state;

/**
 * A connection as the controller keys it: bulk data flows from src to dst. IPs are normalised literals.
 *
 * @param transport "TCP" or "RDMA"
 */
public record ConnectionKey(String srcIp, int srcPort, String dstIp, int dstPort, String transport) {
    @Override
    public String toString() {
        return transport + " " + endpoint(srcIp, srcPort) + " -> " + endpoint(dstIp, dstPort);
    }

    static String endpoint(String ip, int port) {
        return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + port : ip + ":" + port;
    }
}
