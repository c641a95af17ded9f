package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.List;

/**
 * How ports are scheduled: the interchangeable part of a simulation (baseline, ideal max-min, Saba, Homa-like,
 * Sincronia-like). One instance serves one simulation and may keep state between calls; create it from a
 * {@link PolicyFactory}.
 */
public interface SharingPolicy {
    /** Jobs came or went (at time 0 every job arrives). A controller recomputes its allocation here. */
    default void onJobsChanged(List<SimJob> alive, double now) {
    }

    /** Shuffles started or ended. Coflow schedulers re-order here. */
    default void onGroupsChanged(List<FlowGroup> active, double now) {
    }

    /**
     * The schedule of one port for the groups now crossing it.
     *
     * @param port   the port
     * @param groups the active groups crossing it; the schedule's members index into this list
     */
    PortSchedule arrange(PortId port, List<FlowGroup> groups);

    /**
     * True when every port is a single per-flow-fair queue, so the engine may use exact progressive filling
     * instead of the per-port fixed point (same answer, faster).
     */
    default boolean isPerFlowMaxMin() {
        return false;
    }
}
