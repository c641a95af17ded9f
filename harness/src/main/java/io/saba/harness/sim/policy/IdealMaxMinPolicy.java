package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.engine.FlowGroup;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SharingPolicy;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.List;

/**
 * Ideal max-min (paper §8.4, study 4): each application gets a dedicated queue on every port and queues are
 * served round robin with equal weights, so at each port the applications present split the link equally, no
 * matter how many flows each opens.
 */
public final class IdealMaxMinPolicy implements SharingPolicy {
    public static final PolicyFactory FACTORY = network -> new IdealMaxMinPolicy();

    @Override
    public PortSchedule arrange(PortId port, List<FlowGroup> groups) {
        // A job has at most one active shuffle, so one group = one application's queue.
        PortSchedule s = new PortSchedule();
        for (int i = 0; i < groups.size(); i++) {
            s.queue(1.0, i);
        }
        return s;
    }
}
