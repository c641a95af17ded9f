package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.sharing.PortFixedPointSharing;
import io.saba.harness.sim.sharing.PortLoad;
import io.saba.harness.sim.sharing.PortSchedule;
import io.saba.harness.sim.sharing.ProgressiveFilling;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rates of the active flow groups: each port scheduled as the policy arranges it (its input buffers as FIFOs
 * under head-of-line blocking), then the per-port fixed point over all ports; or exact progressive filling when every
 * port is one per-flow-fair queue, which gives the same answer faster.
 */
final class RateSolver {
    private final FlowNetwork network;
    private final SharingPolicy policy;
    private final boolean headOfLineBlocking;

    /** @param headOfLineBlocking see {@link Simulation#Simulation(FlowNetwork, List, PolicyFactory, boolean)} */
    RateSolver(FlowNetwork network, SharingPolicy policy, boolean headOfLineBlocking) {
        this.network = network;
        this.policy = policy;
        this.headOfLineBlocking = headOfLineBlocking;
    }

    /** Sets the rate of every group in {@code active}, which must not be empty. */
    void solve(List<FlowGroup> active) {
        Map<FlowGroup, Integer> idx = new HashMap<>();
        for (int i = 0; i < active.size(); i++) {
            idx.put(active.get(i), i);
        }
        // Gather, per port, the groups crossing it, in a deterministic order (group order, then port order).
        Map<PortId, List<FlowGroup>> byPort = new LinkedHashMap<>();
        for (FlowGroup g : active) {
            for (PortId p : g.job().flowsPerPort().keySet()) {
                byPort.computeIfAbsent(p, k -> new ArrayList<>()).add(g);
            }
        }
        List<PortLoad> loads = new ArrayList<>(byPort.size());
        boolean exact = policy.isPerFlowMaxMin() && !headOfLineBlocking;
        for (Map.Entry<PortId, List<FlowGroup>> e : byPort.entrySet()) {
            List<FlowGroup> here = e.getValue();
            int[] gs = new int[here.size()];
            double[] mult = new double[here.size()];
            for (int k = 0; k < here.size(); k++) {
                gs[k] = idx.get(here.get(k));
                mult[k] = here.get(k).job().flowsPerPort().get(e.getKey());
            }
            PortSchedule sched = exact ? null : policy.arrange(e.getKey(), List.copyOf(here));
            if (headOfLineBlocking && network instanceof TopologyNetwork f && f.isHostPort(e.getKey())) {
                sched = sched.asFifoBuffers();
            }
            loads.add(new PortLoad(network.capacity(e.getKey()), gs, mult, sched));
        }
        double[] caps = new double[active.size()];
        for (int i = 0; i < caps.length; i++) {
            caps[i] = active.get(i).capPerFlow();
        }
        double[] rates = exact ? ProgressiveFilling.solve(caps, loads) : PortFixedPointSharing.solve(caps, loads);
        for (int i = 0; i < rates.length; i++) {
            active.get(i).rate(rates[i]);
        }
    }
}
