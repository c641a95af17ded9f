package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.engine.FlowGroup;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SharingPolicy;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.List;

/**
 * The baseline: every flow of every application in one queue, per-flow max-min fair across the network. This is
 * what InfiniBand's end-to-end congestion control approximates (paper §8.1); the fluid model gives the idealised
 * version of it, which is kinder to the baseline than real FECN.
 */
public final class PerFlowMaxMinPolicy implements SharingPolicy {
    public static final PolicyFactory FACTORY = network -> new PerFlowMaxMinPolicy();

    @Override
    public PortSchedule arrange(PortId port, List<FlowGroup> groups) {
        return PortSchedule.oneQueue(groups.size());
    }

    @Override
    public boolean isPerFlowMaxMin() {
        return true;
    }
}
