package io.saba.wire;

import io.saba.proto.v1.Connection;
import io.saba.proto.v1.Endpoint;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * The one converter between a {@link ConnectionKey} and its saba.v1 message, used by the client to send and by the
 * controller to read. Reading validates with messages that name the field and the rule: addresses must be literal
 * IPs (the controller never does DNS on a request path: a name could block and could resolve differently later),
 * and are normalised so that one address has one spelling.
 */
public final class ConnectionProto {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private ConnectionProto() {
    }

    public static Connection toProto(ConnectionKey k) {
        return Connection.newBuilder()
                .setSrc(Endpoint.newBuilder().setIp(k.srcIp()).setPort(k.srcPort()))
                .setDst(Endpoint.newBuilder().setIp(k.dstIp()).setPort(k.dstPort()))
                .setTransport(k.transport() == Transport.RDMA
                        ? io.saba.proto.v1.Transport.RDMA : io.saba.proto.v1.Transport.TCP)
                .build();
    }

    /**
     * The key a message names; an unset transport is TCP.
     *
     * @throws IllegalArgumentException naming the field and the rule it breaks
     */
    public static ConnectionKey fromProto(Connection c) {
        if (!c.hasSrc() || !c.hasDst()) {
            throw new IllegalArgumentException("connection needs both src and dst endpoints");
        }
        Transport transport = switch (c.getTransport()) {
            case RDMA -> Transport.RDMA;
            case TCP, TRANSPORT_UNSPECIFIED -> Transport.TCP;
            default -> throw new IllegalArgumentException("unknown transport " + c.getTransportValue());
        };
        return new ConnectionKey(ip("src", c.getSrc()), port("src", c.getSrc()), ip("dst", c.getDst()),
                port("dst", c.getDst()), transport);
    }

    private static int port(String which, Endpoint e) {
        if (e.getPort() < 1 || e.getPort() > 65_535) {
            throw new IllegalArgumentException(which + " endpoint port " + Integer.toUnsignedString(e.getPort())
                    + " is outside 1..65535");
        }
        return e.getPort();
    }

    /** Normalises a literal IPv4/IPv6 address; rejects names without resolving them. */
    private static String ip(String which, Endpoint e) {
        String s = e.getIp();
        if (isCanonicalIpv4(s)) {
            return s; // already the one spelling (what InetAddress would give back): no regex, no parse per event
        }
        var v4 = IPV4.matcher(s);
        if (v4.matches()) {
            for (int g = 1; g <= 4; g++) {
                if (Integer.parseInt(v4.group(g)) > 255) {
                    throw new IllegalArgumentException(which + " endpoint ip '" + s + "' is not a valid IPv4 address");
                }
            }
        } else if (!(s.indexOf(':') >= 0 && IPV6.matcher(s).matches())) {
            throw new IllegalArgumentException(which + " endpoint ip '" + truncate(s)
                    + "' is not a literal IP address (host names are not accepted)");
        }
        try {
            return InetAddress.getByName(s).getHostAddress();
        } catch (UnknownHostException ex) {
            throw new IllegalArgumentException(which + " endpoint ip '" + s + "' is not a valid IP address");
        }
    }

    /** Four decimal groups of 0..255 without leading zeros, e.g. "10.0.3.17": the form every client sends. */
    static boolean isCanonicalIpv4(String s) {
        int n = s.length();
        if (n < 7 || n > 15) {
            return false;
        }
        int groups = 0;
        int i = 0;
        while (i < n) {
            int start = i;
            int value = 0;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                value = value * 10 + (s.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 3 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
                return false;
            }
            groups++;
            if (i == n) {
                break;
            }
            if (s.charAt(i) != '.' || groups == 4) {
                return false;
            }
            i++;
            if (i == n) {
                return false; // a trailing dot
            }
        }
        return groups == 4;
    }

    private static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
