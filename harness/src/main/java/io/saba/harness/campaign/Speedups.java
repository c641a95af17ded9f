package io.saba.harness.campaign;

import io.saba.core.stats.Stats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Geometric means and distributions of speedups, as the paper reports them. */
public final class Speedups {
    private Speedups() {
    }

    /** {@link Stats#geomean}: NaN for none. */
    public static double geomean(Collection<Double> xs) {
        return Stats.geomean(xs);
    }

    /** Geometric-mean speedup per workload, by name. */
    public static Map<String, Double> perWorkload(List<JobOutcome> rows) {
        Map<String, List<Double>> by = new TreeMap<>();
        for (JobOutcome o : rows) {
            by.computeIfAbsent(o.workload(), k -> new ArrayList<>()).add(o.speedup());
        }
        Map<String, Double> out = new TreeMap<>();
        by.forEach((k, v) -> out.put(k, geomean(v)));
        return out;
    }

    /** Geometric-mean speedup of each setup's jobs, sorted ascending (the CDF of Fig. 8b). */
    public static List<Double> perSetup(List<JobOutcome> rows) {
        Map<Integer, List<Double>> by = new TreeMap<>();
        for (JobOutcome o : rows) {
            by.computeIfAbsent(o.setup(), k -> new ArrayList<>()).add(o.speedup());
        }
        List<Double> out = new ArrayList<>();
        by.values().forEach(v -> out.add(geomean(v)));
        Collections.sort(out);
        return out;
    }

    public static double allJobs(List<JobOutcome> rows) {
        return geomean(rows.stream().map(JobOutcome::speedup).toList());
    }
}
