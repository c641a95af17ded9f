package io.saba.core.cluster;

import io.saba.core.model.SensitivityModel;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of application-to-level clustering: each application's priority level and each used level's centroid.
 *
 * @param levelOfApp     application id → level (1..S-1; 0 is never assigned, it is the default class)
 * @param levelCentroids level → the mean of its applications' models
 */
public record LevelAssignment(Map<String, Integer> levelOfApp, Map<Integer, SensitivityModel> levelCentroids) {
    public LevelAssignment {
        levelOfApp = Collections.unmodifiableMap(new TreeMap<>(levelOfApp));
        levelCentroids = Collections.unmodifiableMap(new TreeMap<>(levelCentroids));
    }

    /** The level of an application, or 0 (the default class) if it is unknown. */
    public int levelOf(String appId) {
        return levelOfApp.getOrDefault(appId, LevelAssigner.DEFAULT_LEVEL);
    }

    /** An assignment with no applications. */
    public static LevelAssignment empty() {
        return new LevelAssignment(Map.of(), Map.of());
    }
}
