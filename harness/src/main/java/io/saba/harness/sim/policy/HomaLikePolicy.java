package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.engine.FlowGroup;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SharingPolicy;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Homa-like (paper §8.4 study 5): priorities by remaining message size. Flows with at most
 * {@link #UNSCHEDULED_BYTES} left go first (Homa's unscheduled priorities); all longer flows share one level, as the
 * paper configured Homa. On the last hop toward a host, where Homa's receiver issues grants, longer flows are
 * additionally served shortest-remaining-first (receiver-driven SRPT); elsewhere they share per flow.
 */
public final class HomaLikePolicy implements SharingPolicy {
    public static final double UNSCHEDULED_BYTES = 10_000;
    private final FlowNetwork network;

    public HomaLikePolicy(FlowNetwork network) {
        this.network = network;
    }

    public static final PolicyFactory FACTORY = HomaLikePolicy::new;

    private boolean isLastHop(PortId port) {
        return network instanceof TopologyNetwork f && f.isTowardHost(port);
    }

    @Override
    public PortSchedule arrange(PortId port, List<FlowGroup> groups) {
        List<Integer> small = new ArrayList<>();
        List<Integer> large = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            (groups.get(i).remainingPerFlow() <= UNSCHEDULED_BYTES ? small : large).add(i);
        }
        PortSchedule s = new PortSchedule();
        if (!small.isEmpty()) {
            s.newClass().queue(1, small.stream().mapToInt(Integer::intValue).toArray());
        }
        if (large.isEmpty()) {
            return s;
        }
        if (isLastHop(port)) {
            large.sort(Comparator.comparingDouble((Integer i) -> groups.get(i).remainingPerFlow())
                    .thenComparingLong(i -> groups.get(i).startSequence()));
            for (int i : large) {
                s.newClass().queue(1, i);
            }
        } else {
            s.newClass().queue(1, large.stream().mapToInt(Integer::intValue).toArray());
        }
        return s;
    }
}
