package io.saba.profiler;

import java.util.Map;

/**
 * The slowdowns the Saba paper gives for some workloads (§2 and §4.2, as listed in the project's figure notes): share
 * of the link in percent → slowdown. Values the paper gives only as "about 1" are 1.0. Drawn beside a profiled
 * curve so a reader sees where ours and the paper's agree; the paper gives no more of these curves.
 */
public final class PaperCurves {
    private PaperCurves() {
    }

    private static final Map<String, Map<Double, Double>> POINTS = Map.of(
            "lr", Map.of(75.0, 1.3, 25.0, 3.4, 10.0, 4.5),
            "sql", Map.of(75.0, 1.0, 25.0, 1.2, 10.0, 2.2),
            "pagerank", Map.of(25.0, 1.4),
            "sort", Map.of(75.0, 1.0, 25.0, 1.1),
            "wordcount", Map.of(75.0, 1.0));

    /** The paper's points for the workload, empty when it gives none. */
    public static Map<Double, Double> of(String workload) {
        return POINTS.getOrDefault(workload, Map.of());
    }
}
