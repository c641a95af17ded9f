package io.saba.controller.alloc;

import java.util.Map;

/**
 * The level of each workload, plus whatever the engine needs to map levels to a port's queues.
 *
 * @param levelOfWorkload workload → level (1..S-1; 0 is the default class)
 * @param engineState     opaque to the controller (e.g. the level hierarchy)
 */
public record LevelPlan(Map<String, Integer> levelOfWorkload, Object engineState) {
    public LevelPlan {
        levelOfWorkload = Map.copyOf(levelOfWorkload);
    }

    public int levelOf(String workload) {
        return levelOfWorkload.getOrDefault(workload, 0);
    }
}
