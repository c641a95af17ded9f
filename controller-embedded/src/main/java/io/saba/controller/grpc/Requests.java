package io.saba.controller.grpc;

import io.saba.controller.state.ConnectionKey;
import io.saba.controller.state.ControllerException;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.Endpoint;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Validation of request fields, with messages that name the field and the rule. Addresses must be literal IPs:
 * the controller never does DNS on a request path (a name could block and could resolve differently later).
 */
final class Requests {
    static final int MAX_APP_ID = 256;
    static final int MAX_LABEL = 128;
    static final int MAX_BATCH = 10_000;
    static final int MAX_SYNC = 1_000_000;
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private Requests() {
    }

    static String appId(String id) {
        if (id.isEmpty()) {
            throw ControllerException.invalid("app_id is empty");
        }
        return text("app_id", id, MAX_APP_ID);
    }

    /** A workload, framework or user name. Empty is fine (an empty workload is the default workload). */
    static String label(String field, String value) {
        return text(field, value, MAX_LABEL);
    }

    private static String text(String field, String value, int max) {
        if (value.length() > max) {
            throw ControllerException.invalid(field + " is " + value.length() + " characters long; at most "
                    + max + " allowed");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw ControllerException.invalid(field + " contains a control character at index " + i);
            }
        }
        return value;
    }

    static ConnectionKey connection(Connection c) {
        if (!c.hasSrc() || !c.hasDst()) {
            throw ControllerException.invalid("connection needs both src and dst endpoints");
        }
        String transport = switch (c.getTransport()) {
            case RDMA -> "RDMA";
            case TCP, TRANSPORT_UNSPECIFIED -> "TCP";
            default -> throw ControllerException.invalid("unknown transport " + c.getTransportValue());
        };
        return new ConnectionKey(ip("src", c.getSrc()), port("src", c.getSrc()), ip("dst", c.getDst()),
                port("dst", c.getDst()), transport);
    }

    private static int port(String which, Endpoint e) {
        if (e.getPort() < 1 || e.getPort() > 65_535) {
            throw ControllerException.invalid(which + " endpoint port " + Integer.toUnsignedString(e.getPort())
                    + " is outside 1..65535");
        }
        return e.getPort();
    }

    /** Normalises a literal IPv4/IPv6 address; rejects names without resolving them. */
    static String ip(String which, Endpoint e) {
        String s = e.getIp();
        var v4 = IPV4.matcher(s);
        if (v4.matches()) {
            for (int g = 1; g <= 4; g++) {
                if (Integer.parseInt(v4.group(g)) > 255) {
                    throw ControllerException.invalid(which + " endpoint ip '" + s + "' is not a valid IPv4 address");
                }
            }
        } else if (!(s.indexOf(':') >= 0 && IPV6.matcher(s).matches())) {
            throw ControllerException.invalid(which + " endpoint ip '" + truncate(s)
                    + "' is not a literal IP address (host names are not accepted)");
        }
        try {
            return InetAddress.getByName(s).getHostAddress();
        } catch (UnknownHostException ex) {
            throw ControllerException.invalid(which + " endpoint ip '" + s + "' is not a valid IP address");
        }
    }

    private static String truncate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
