package io.saba.core.alloc;

import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import java.util.Map;
import java.util.Objects;

/**
 * The first half of an allocation, computed when the set of workloads changes: each workload's priority level
 * (K-means over the workloads present; applications of one workload share its level) and the level hierarchy that
 * fits levels into a port's queues. {@link Allocator#allocatePort} is the second half, per port.
 *
 * @param levels    workload → level (1..S-1) and each level's centroid
 * @param hierarchy levels merged down to the smallest queue count of any port the plan serves
 */
public record LevelPlan(LevelAssignment levels, LevelHierarchy hierarchy) {
    private static final LevelPlan NONE = new LevelPlan(LevelAssignment.empty(),
            LevelHierarchy.build(Map.of(), 1));

    public LevelPlan {
        Objects.requireNonNull(levels, "levels");
        Objects.requireNonNull(hierarchy, "hierarchy");
    }

    /** The plan of no workload: every application is at level 0, the default class. */
    public static LevelPlan none() {
        return NONE;
    }

    /** A workload's level, or 0 (the default class) for a workload the plan does not cover. */
    public int levelOf(String workload) {
        return levels.levelOf(workload);
    }

    /** Workload → level, for every workload the plan covers. */
    public Map<String, Integer> levelOfWorkload() {
        return levels.levelOfApp();
    }
}
