package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.Map;

/**
 * A Saba controller's decision: the priority level of every application and, per port, which queue each level
 * uses and the queue weights (the core's {@link PortAllocation}).
 */
public record SabaPlan(Map<String, Integer> levelOfApp, Map<PortId, PortAllocation> ports) {
    public SabaPlan {
        levelOfApp = Map.copyOf(levelOfApp);
        ports = Map.copyOf(ports);
    }
}
