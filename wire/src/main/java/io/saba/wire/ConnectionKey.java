package io.saba.wire;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One connection, as both ends of the wire key it: bulk data flows from {@code src} to {@code dst}. Endpoints are
 * literal IP strings because the controller resolves them to topology hosts by address (it never does DNS).
 *
 * @param transport how the connection moves its bytes (never null)
 */
public record ConnectionKey(String srcIp, int srcPort, String dstIp, int dstPort, Transport transport) {
    public ConnectionKey {
        Objects.requireNonNull(transport, "transport");
    }

    /** The key of a socket's two ends; a null transport means TCP. */
    public static ConnectionKey of(InetSocketAddress src, InetSocketAddress dst, Transport transport) {
        return new ConnectionKey(ip(src), src.getPort(), ip(dst), dst.getPort(),
                transport == null ? Transport.TCP : transport);
    }

    /** Resolved addresses give their literal IP; unresolved ones are sent as written (the controller rejects names). */
    private static String ip(InetSocketAddress a) {
        return a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
    }

    /** "10.0.0.1:7337", or "[fe80::1]:7337" for IPv6. */
    public static String endpoint(String ip, int port) {
        return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + port : ip + ":" + port;
    }

    @Override
    public String toString() {
        return transport + " " + endpoint(srcIp, srcPort) + " -> " + endpoint(dstIp, dstPort);
    }
}
