package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.PortSchedule;
import io.saba.harness.sim.sharing.QueueingDelay;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The wait a synchronous round's last messages meet behind other applications' buffered data in their queue, there
 * and back, on the hops of its slowest pair of hosts ({@link Simulation#queueingDelay}): the round ends that much
 * after its last byte.
 */
final class RoundWaits {
    private final FlowNetwork network;
    private final SharingPolicy policy;
    private final QueueingDelay queueing;

    RoundWaits(FlowNetwork network, SharingPolicy policy, QueueingDelay queueing) {
        this.network = network;
        this.policy = policy;
        this.queueing = queueing;
    }

    /**
     * The wait of each drained group, with the queues as the rounds' last messages found them: every active group
     * still in, at the rates just used.
     *
     * @param drained groups whose last byte just arrived, all in {@code active}
     * @param active  every group the rates were solved for
     */
    Map<FlowGroup, Double> of(List<FlowGroup> drained, List<FlowGroup> active) {
        Map<FlowGroup, Double> roundWait = new HashMap<>();
        Map<PortId, Map<FlowGroup, Double>> waits = new HashMap<>();
        for (FlowGroup g : drained) {
            roundWait.put(g, roundTrip(g, waits, active));
        }
        return roundWait;
    }

    /** The longest there-and-back queueing wait over the group's pairs of hosts. */
    private double roundTrip(FlowGroup g, Map<PortId, Map<FlowGroup, Double>> waits, List<FlowGroup> active) {
        List<String> hosts = g.job().spec().hosts();
        double worst = 0;
        for (int a = 0; a < hosts.size(); a++) {
            for (int b = a + 1; b < hosts.size(); b++) {
                double t = 0;
                for (PortId p : network.path(hosts.get(a), hosts.get(b))) {
                    t += waits.computeIfAbsent(p, port -> waitsAt(port, active)).getOrDefault(g, 0.0);
                }
                for (PortId p : network.path(hosts.get(b), hosts.get(a))) {
                    t += waits.computeIfAbsent(p, port -> waitsAt(port, active)).getOrDefault(g, 0.0);
                }
                worst = Math.max(worst, t);
            }
        }
        return worst;
    }

    /** Each active group's wait at one port: the other groups' flows in its queue, if the port is saturated. */
    private Map<FlowGroup, Double> waitsAt(PortId port, List<FlowGroup> active) {
        List<FlowGroup> here = new ArrayList<>();
        double used = 0;
        for (FlowGroup g : active) {
            Integer flows = g.job().flowsPerPort().get(port);
            if (flows != null) {
                here.add(g);
                used += g.rate() * flows;
            }
        }
        double capacity = network.capacity(port);
        Map<FlowGroup, Double> out = new HashMap<>();
        if (used < PortLoads.SATURATED * capacity) {
            return out;
        }
        for (List<PortSchedule.Queue> cls : policy.arrange(port, List.copyOf(here)).classes()) {
            for (PortSchedule.Queue q : cls) {
                double flows = 0;
                double rate = 0;
                for (int m : q.members()) {
                    FlowGroup g = here.get(m);
                    int f = g.job().flowsPerPort().get(port);
                    flows += f;
                    rate += g.rate() * f;
                }
                for (int m : q.members()) {
                    FlowGroup g = here.get(m);
                    out.put(g, queueing.wait(flows - g.job().flowsPerPort().get(port), capacity, rate));
                }
            }
        }
        return out;
    }
}
