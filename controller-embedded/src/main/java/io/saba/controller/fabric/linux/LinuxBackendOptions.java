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
 *   ports:                      # and/or explicit ports: "node:port" → "[namespace/]device@rate"
 *     "h1:0": "eth0@10gbit"     #   host-based enforcement on a real host's NIC
 *   c-saba: 0.9                 # Saba's share of each link (default 1.0); the rest is the non-Saba class
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
        } else if (explicit != null) {
            throw new IllegalArgumentException("backend-options.ports must map \"node:port\" to \"[ns/]dev@rate\"");
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
