package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each port carried over one run: bytes, the seconds it was saturated, and which jobs' shuffles crossed it
 * (how loaded a fabric really is, and how many applications share a port, decide what any allocation can
 * change). Filled by {@link Simulation#tracePortLoads}.
 */
public final class PortLoads {
    /** A port is saturated when its flows use this much of it (as the queueing delay's test). */
    public static final double SATURATED = 0.98;

    private final Map<PortId, double[]> byPort = new HashMap<>();
    private final Map<PortId, BitSet> jobsByPort = new HashMap<>();

    void record(List<FlowGroup> active, double dt, FlowNetwork network) {
        if (dt <= 0 || active.isEmpty()) {
            return;
        }
        Map<PortId, Double> rate = new HashMap<>();
        for (FlowGroup g : active) {
            if (g.rate() <= 0) {
                continue;
            }
            for (Map.Entry<PortId, Integer> e : g.job().flowsPerPort().entrySet()) {
                rate.merge(e.getKey(), g.rate() * e.getValue(), Double::sum);
                jobsByPort.computeIfAbsent(e.getKey(), k -> new BitSet()).set(g.job().index());
            }
        }
        rate.forEach((port, r) -> {
            double[] a = byPort.computeIfAbsent(port, k -> new double[2]);
            a[0] += r * dt;
            if (r >= SATURATED * network.capacity(port)) {
                a[1] += dt;
            }
        });
    }

    /** Ports that carried anything. */
    public Set<PortId> ports() {
        return byPort.keySet();
    }

    public double bytes(PortId port) {
        double[] a = byPort.get(port);
        return a == null ? 0 : a[0];
    }

    public double saturatedSeconds(PortId port) {
        double[] a = byPort.get(port);
        return a == null ? 0 : a[1];
    }

    /** How many jobs' shuffles crossed the port. */
    public int jobs(PortId port) {
        BitSet b = jobsByPort.get(port);
        return b == null ? 0 : b.cardinality();
    }
}
