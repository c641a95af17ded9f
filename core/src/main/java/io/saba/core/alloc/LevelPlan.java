package io.saba.core.alloc;

import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import java.util.Map;
import java.util.Objects;

/**
 * The first half of an allocation, computed when the members present change: each member's priority level and the
 * level hierarchy that fits levels into a port's queues. {@link Allocator#allocatePort} is the second half, per
 * port. The members are workloads (applications of one workload share its level) or, with
 * {@link LevelMode#APPLICATION}, the applications themselves.
 *
 * @param levels    member → level (1..S-1) and each level's centroid
 * @param hierarchy levels merged down to the smallest queue count of any port the plan serves
 * @param mode      what the members are: the keys of {@code levels}
 */
public record LevelPlan(LevelAssignment levels, LevelHierarchy hierarchy, LevelMode mode) {
    private static final LevelPlan NONE = new LevelPlan(LevelAssignment.empty(),
            LevelHierarchy.build(Map.of(), 1));

    public LevelPlan {
        Objects.requireNonNull(levels, "levels");
        Objects.requireNonNull(hierarchy, "hierarchy");
        Objects.requireNonNull(mode, "mode");
    }

    /** A plan whose members are workloads. */
    public LevelPlan(LevelAssignment levels, LevelHierarchy hierarchy) {
        this(levels, hierarchy, LevelMode.WORKLOAD);
    }

    /** The plan of no workload: every application is at level 0, the default class. */
    public static LevelPlan none() {
        return NONE;
    }

    /** A member's level, or 0 (the default class) for a member the plan does not cover. */
    public int levelOf(String member) {
        return levels.levelOf(member);
    }

    /** An application's level: its own under {@link LevelMode#APPLICATION}, its workload's otherwise. */
    public int levelOf(String appId, String workload) {
        return levels.levelOf(mode == LevelMode.APPLICATION ? appId : workload);
    }

    /** Whether the plan gives the application a level (its own, or its workload's). */
    public boolean covers(String appId, String workload) {
        return levels.levelOfApp().containsKey(mode == LevelMode.APPLICATION ? appId : workload);
    }

    /** Member → level, for every member the plan covers (workloads, or applications under APPLICATION). */
    public Map<String, Integer> levelOfWorkload() {
        return levels.levelOfApp();
    }
}
