package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortId;
import java.util.Set;

/**
 * What the controller knows of one application: its id, its workload (the sensitivity-table key) and the switch
 * output ports its connections cross (from connection reports and path resolution).
 */
public record AppPresence(String appId, String workload, Set<PortId> ports) {
    public AppPresence {
        ports = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(ports)); // stable order
    }
}
