package io.saba.controller.alloc;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import java.util.List;
import java.util.Map;

/**
 * The controller's only door to the allocation math (which lives in core): cluster workloads into levels, and
 * allocate one port. Kept this thin so the controller never holds math, and so the per-port path stays
 * incremental: a connection event recomputes only the ports on its path.
 */
public interface AllocationEngine {
    /** Assigns a priority level to each distinct workload present (apps of one workload share a level). */
    LevelPlan plan(Map<String, SensitivityModel> modelOfWorkload);

    /**
     * The queue map and weights of one port.
     *
     * @param plan   the plan the apps' levels come from
     * @param queues the port's queue count
     * @param apps   the applications crossing the port (non-empty)
     */
    PortAllocation allocatePort(LevelPlan plan, PortId port, int queues, List<AppAtPort> apps);

    /**
     * An application crossing a port, as the engine needs it.
     *
     * @param workload its sensitivity-table key
     * @param flows    its connections across the port
     */
    record AppAtPort(String appId, String workload, int level, SensitivityModel model, int flows) {
    }
}
