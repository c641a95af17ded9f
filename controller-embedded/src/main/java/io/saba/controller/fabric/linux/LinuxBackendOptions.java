package io.saba.controller.fabric.linux;

import io.saba.client.DscpMap;
import io.saba.controller.testbed.Testbed;
import io.saba.controller.testbed.TestbedSpec;
import io.saba.core.alloc.PortId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a {@link LinuxTcBackend} from the controller configuration's {@code backend-options}:
 * <pre>
 * backend: linux
 * backend-options:
 *   testbed: tb                 # every port of a namespace testbed that is up (sw:N and host ports hN:0)
 *   ports: "h1:0=eth0@10gbit, s1:3=saba-x-sw/p3@100mbit"   # and/or explicit node:port=[namespace/]device@rate
 *                               #   (a YAML map "h1:0": "eth0@10gbit" works too when options arrive as a map)
 *   c-saba: 0.9                 # upper bound on a port's summed queue weights (default 1.0); the non-Saba
 *                               #   class always gets what the queues do not, 1 - sum(weights)
 *   dscp-map: "0:0,1:8,2:16"    # level:dscp (default: level L → CS L, DSCP 8·L)
 * </pre>
 */
public final class LinuxBackendOptions {
    private LinuxBackendOptions() {
    }

    public static LinuxTcBackend create(Map<String, Object> options) {
        Map<PortId, LinuxPort> ports = new HashMap<>();
        Object testbed = options.get("testbed");
        if (testbed != null) {
            try {
                TestbedSpec spec = TestbedSpec.load(testbed.toString());
                LinuxPortResolver r = Testbed.ports(spec);
                for (int i = 1; i <= spec.hosts(); i++) {
                    PortId sw = new PortId(TestbedSpec.SWITCH, i);
                    PortId host = new PortId(spec.hostName(i), 0);
                    ports.put(sw, r.resolve(sw).orElseThrow());
                    ports.put(host, r.resolve(host).orElseThrow());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("backend-options.testbed: " + e.getMessage(), e);
            }
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
        Map<PortId, LinuxPort> fixed = Map.copyOf(ports);
        return new LinuxTcBackend(p -> Optional.ofNullable(fixed.get(p)), dscp, cSaba);
    }

    static PortId portId(String key) {
        int colon = key.lastIndexOf(':');
        try {
            return new PortId(key.substring(0, colon), Integer.parseInt(key.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("backend-options.ports: '" + key + "' is not node:port", e);
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
