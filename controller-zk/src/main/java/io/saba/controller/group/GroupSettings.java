package io.saba.controller.group;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where a controller group lives and how this member joins it, from one URI:
 * {@code zk://zk1:2181,zk2:2181,zk3:2181/saba/prod?session-timeout-ms=10000&id=ctl-a}.
 *
 * @param connect        ZooKeeper connect string (host:port, comma-separated)
 * @param namespace      the group's root znode, without the leading slash
 * @param sessionTimeout how long a silent member keeps its switches: the takeover time after a crash
 * @param id             this member's name in the group (default: host name and process id)
 */
public record GroupSettings(String connect, String namespace, Duration sessionTimeout, String id) {
    private static final Set<String> PARAMS = Set.of("session-timeout-ms", "id");

    public GroupSettings {
        if (id.isEmpty() || id.contains("/")) {
            throw new IllegalArgumentException("member id '" + id + "' must be non-empty and contain no '/'");
        }
    }

    public static GroupSettings parse(String uri) {
        URI u;
        try {
            u = new URI(uri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("group '" + uri + "' is not a URI: " + e.getMessage(), e);
        }
        if (!"zk".equals(u.getScheme()) || u.getRawAuthority() == null) {
            throw new IllegalArgumentException("group '" + uri + "' must look like zk://host:port[,host:port]/path");
        }
        String path = u.getPath() == null ? "" : u.getPath().replaceAll("^/+|/+$", "");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("group '" + uri + "' needs a path naming the group, e.g. zk://"
                    + u.getRawAuthority() + "/saba");
        }
        Map<String, String> q = new LinkedHashMap<>();
        if (u.getQuery() != null) {
            for (String kv : u.getQuery().split("&")) {
                int eq = kv.indexOf('=');
                String k = eq < 0 ? kv : kv.substring(0, eq);
                if (!PARAMS.contains(k)) {
                    throw new IllegalArgumentException("group '" + uri + "': unknown parameter '" + k
                            + "'; known: " + PARAMS);
                }
                q.put(k, eq < 0 ? "" : kv.substring(eq + 1));
            }
        }
        long sessionMs;
        try {
            sessionMs = Long.parseLong(q.getOrDefault("session-timeout-ms", "10000"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("group '" + uri + "': session-timeout-ms is not a number", e);
        }
        return new GroupSettings(u.getRawAuthority(), path, Duration.ofMillis(sessionMs),
                q.getOrDefault("id", defaultId()));
    }

    private static String defaultId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
