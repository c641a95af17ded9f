package io.saba.testbed;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.LinuxPortResolver;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.controller.fabric.linux.PlainLink;
import io.saba.process.CommandRunner;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.wire.DscpMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Saba's weighted queues set by hand on testbed ports, without a controller: one queue per priority level, the level's
 * weight as its share of the link, through the Linux backend (so the classes, quanta and DSCP filters are the ones the
 * controller would install). {@code saba testbed apply} and the profiler's corun method use it. The configuration
 * stays in the kernel after the call; {@link #reset} puts the plain link back.
 */
public final class TestbedWeights {
    private final CommandRunner shell;
    private final Map<PortId, LinuxPort> devices;
    private final double cSaba;

    /**
     * @param devices the ports to set, e.g. {@link #ports} of a testbed
     * @param cSaba   what the weights may sum to at most (the non-Saba class keeps the rest)
     */
    public TestbedWeights(CommandRunner shell, Map<PortId, LinuxPort> devices, double cSaba) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("no ports to set weights on");
        }
        this.shell = shell;
        this.devices = Map.copyOf(devices);
        this.cSaba = cSaba;
    }

    /** Every port of the testbed: each host's egress (h&lt;i&gt;:0) and each switch port (sw:i). */
    public static Map<PortId, LinuxPort> ports(TestbedSpec spec) {
        return new TestbedPorts().ports(spec);
    }

    /** The testbed's ports named {@code node:port} ("sw:1", "h2:0"); throws IllegalArgumentException for others. */
    public static Map<PortId, LinuxPort> ports(TestbedSpec spec, List<String> names) {
        LinuxPortResolver all = LinuxPortResolver.of(ports(spec));
        Map<PortId, LinuxPort> out = new LinkedHashMap<>();
        for (String port : names) {
            int colon = port.lastIndexOf(':');
            PortId id;
            try {
                id = new PortId(port.substring(0, Math.max(colon, 0)), Integer.parseInt(port.substring(colon + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("--port '" + port + "' is not node:port");
            }
            out.put(id, all.resolve(id).orElseThrow(() -> new IllegalArgumentException("testbed " + spec.name()
                    + " has no port " + id)));
        }
        return out;
    }

    public Map<PortId, LinuxPort> devices() {
        return devices;
    }

    /**
     * Puts one queue per level on every port, in the map's order (queue 0 for the first level), weighted as given.
     * Throws IllegalStateException naming the ports that failed (the backend leaves them as they were).
     *
     * @param weightOfLevel priority level → its share of the link
     * @return each port's installed plan, one line each, for printing
     */
    public Map<PortId, String> apply(Map<Integer, Double> weightOfLevel) {
        Map<Integer, Integer> queueOfLevel = new LinkedHashMap<>();
        Map<String, Double> appWeights = new LinkedHashMap<>();
        double[] w = new double[weightOfLevel.size()];
        int q = 0;
        for (Map.Entry<Integer, Double> e : weightOfLevel.entrySet()) {
            queueOfLevel.put(e.getKey(), q);
            w[q++] = e.getValue();
            appWeights.put("level" + e.getKey(), e.getValue());
        }
        // Not closed on purpose: the point is to leave the configuration in place.
        LinuxTcBackend backend = new LinuxTcBackend(LinuxPortResolver.of(devices), DscpMap.classSelectors(), cSaba,
                shell);
        List<PortAllocation> allocations = new ArrayList<>();
        devices.keySet().forEach(id -> allocations.add(new PortAllocation(id, queueOfLevel, w, appWeights)));
        ApplyResult r = backend.apply(allocations);
        if (!r.ok()) {
            throw new IllegalStateException(r.failed().toString());
        }
        Map<PortId, String> plans = new LinkedHashMap<>();
        devices.keySet().forEach(id -> plans.put(id, backend.installedPlan(id).orElseThrow().toString()));
        return plans;
    }

    /** Every port back to the plain link at its rate (Saba's classes and filters removed). */
    public void reset() {
        devices.values().forEach(port -> PlainLink.install(shell, port));
    }

    private static final Pattern SENT = Pattern.compile("class htb (1:[0-9a-f]+) .*?\\n\\s*Sent (\\d+) bytes");

    /**
     * Bytes each Saba queue has sent, summed over the ports (queue → bytes; queues no port has are absent). HTB's
     * counters live as long as the class does, so the difference of two readings around a run is what the run sent
     * through each queue while the weights stayed installed.
     */
    public Map<Integer, Long> queueBytes() {
        Map<String, Integer> queueOfClass = new LinkedHashMap<>();
        for (int q = 0; q < HtbPlan.MAX_QUEUES; q++) {
            queueOfClass.put(HtbPlan.queueClassId(q), q);
        }
        Map<Integer, Long> out = new java.util.TreeMap<>();
        for (LinuxPort port : devices.values()) {
            Matcher m = SENT.matcher(shell.check(port.tc("-s", "class", "show", "dev", port.device())));
            while (m.find()) {
                Integer q = queueOfClass.get(m.group(1));
                if (q != null) {
                    out.merge(q, Long.parseLong(m.group(2)), Long::sum);
                }
            }
        }
        return out;
    }
}
