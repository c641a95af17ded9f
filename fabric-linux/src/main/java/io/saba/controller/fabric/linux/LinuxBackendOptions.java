package io.saba.controller.fabric.linux;

import io.saba.process.ProcessRunner;
import io.saba.wire.DscpMap;
import io.saba.core.alloc.PortId;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Builds a {@link LinuxTcBackend} from the controller configuration's {@code backend-options}:
 * <pre>
 * backend: linux
 * backend-options:
 *   testbed: tb                 # every port of a namespace testbed that is up (sw:N and host ports hN:0);
 *                               #   any key a LinuxPortSource on the class path answers (saba-testbed: testbed)
 *   ports: "h1:0=eth0@10gbit, s1:3=saba-x-sw/p3@100mbit"   # and/or explicit node:port=[namespace/]device@rate
 *                               #   (a YAML map "h1:0": "eth0@10gbit" works too when options arrive as a map)
 *   c-saba: 0.9                 # upper bound on a port's summed queue weights (default 1.0); the non-Saba
 *                               #   class always gets what the queues do not, 1 - sum(weights)
 *   dscp-map: "0:0,1:8,2:16"    # level:dscp (default: level L → CS L, DSCP 8·L)
 *   count-queues: true          # read the queues' byte counters (tc -s class of every port in use about once a
 *                               #   second, one tc kept running per namespace) for the online estimate (default true)
 *   buffer-ms: 30               # what each queue's FIFO holds, in milliseconds of the link (default 10, a shallow
 *                               #   switch buffer); deeper where the CPU serving the device can stall for longer,
 *                               #   e.g. in a VM (HtbPlan.leafLimit)
 * </pre>
 */
public final class LinuxBackendOptions {
    /** The keys this class reads itself; any other key must be a {@link LinuxPortSource}'s. */
    private static final Set<String> OWN_KEYS = Set.of("ports", "c-saba", "dscp-map", "count-queues", "buffer-ms");

    private LinuxBackendOptions() {
    }

    public static LinuxTcBackend create(Map<String, Object> options) {
        Map<PortId, LinuxPort> ports = new HashMap<>();
        Map<String, LinuxPortSource> sources = new HashMap<>();
        for (LinuxPortSource s : ServiceLoader.load(LinuxPortSource.class)) {
            sources.put(s.option(), s);
        }
        for (Map.Entry<String, Object> e : options.entrySet()) {
            if (OWN_KEYS.contains(e.getKey())) {
                continue;
            }
            LinuxPortSource source = sources.get(e.getKey());
            if (source == null) {
                throw new IllegalArgumentException("backend-options." + e.getKey() + ": unknown option of the linux "
                        + "backend; known: " + new java.util.TreeSet<>(OWN_KEYS) + " and " + sources.keySet()
                        + (e.getKey().equals("testbed") ? " (module saba-testbed is not on the class path)" : ""));
            }
            ports.putAll(source.ports(e.getValue().toString()));
        }
        Object explicit = options.get("ports");
        if (explicit instanceof Map<?, ?> m) {
            m.forEach((k, v) -> ports.put(portId(k.toString()), port(k.toString(), v.toString())));
        } else if (explicit != null && !explicit.toString().isBlank()) {
            // The controller hands options over as strings: "node:port=[ns/]dev@rate, ..." is the flat form.
            for (String entry : explicit.toString().split(",")) {
                String[] kv = entry.trim().split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("backend-options.ports: '" + entry.trim()
                            + "' is not node:port=[namespace/]device@rate");
                }
                ports.put(portId(kv[0].trim()), port(kv[0].trim(), kv[1].trim()));
            }
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("the linux backend needs backend-options.testbed or .ports");
        }
        double cSaba = options.containsKey("c-saba") ? Double.parseDouble(options.get("c-saba").toString()) : 1.0;
        DscpMap dscp = options.containsKey("dscp-map")
                ? DscpMap.parse(options.get("dscp-map").toString(), "backend-options.dscp-map")
                : DscpMap.classSelectors();
        String count = options.getOrDefault("count-queues", "true").toString();
        if (!count.equals("true") && !count.equals("false")) {
            throw new IllegalArgumentException("backend-options.count-queues must be true or false, got '" + count
                    + "'");
        }
        return new LinuxTcBackend(LinuxPortResolver.of(ports), dscp, cSaba, new ProcessRunner(),
                Boolean.parseBoolean(count), bufferSeconds(options.get("buffer-ms")));
    }

    /** backend-options.buffer-ms as seconds (the default when absent). */
    static double bufferSeconds(Object ms) {
        if (ms == null) {
            return HtbPlan.DEFAULT_BUFFER_SECONDS;
        }
        double parsed;
        try {
            parsed = Double.parseDouble(ms.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("backend-options.buffer-ms must be a number of milliseconds, got '"
                    + ms + "'");
        }
        return HtbPlan.checkBuffer(parsed / 1000, "backend-options.buffer-ms");
    }

    static PortId portId(String key) {
        try {
            return PortId.parse(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("backend-options.ports: " + e.getMessage(), e);
        }
    }

    /** "[namespace/]device@rate". */
    static LinuxPort port(String key, String value) {
        int at = value.lastIndexOf('@');
        if (at < 0) {
            throw new IllegalArgumentException("backend-options.ports." + key + ": '" + value
                    + "' needs a rate, e.g. eth0@10gbit");
        }
        String where = value.substring(0, at);
        int slash = where.indexOf('/');
        String ns = slash < 0 ? null : where.substring(0, slash);
        String dev = slash < 0 ? where : where.substring(slash + 1);
        return new LinuxPort(ns, dev, Rates.parse(value.substring(at + 1)));
    }
}
