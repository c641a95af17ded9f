package io.saba.client;

import java.net.InetSocketAddress;

/**
 * One connection as the client mirrors it: bulk data flows from {@code src} to {@code dst}. Endpoints are kept
 * as literal IP strings because the controller resolves them to topology hosts by address.
 */
record ConnectionKey(String srcIp, int srcPort, String dstIp, int dstPort, Transport transport) {
    static ConnectionKey of(InetSocketAddress src, InetSocketAddress dst, Transport transport) {
        return new ConnectionKey(ip(src), src.getPort(), ip(dst), dst.getPort(),
                transport == null ? Transport.TCP : transport);
    }

    /** Resolved addresses give their literal IP; unresolved ones are sent as written (the controller rejects names). */
    private static String ip(InetSocketAddress a) {
        return a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
    }
}
