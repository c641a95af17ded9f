package io.saba.core.table;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where and how a workload was profiled: what a reader needs to judge whether the model applies to a run.
 * Every field may be null when unknown.
 *
 * @param nodes       number of nodes the workload ran on
 * @param datasetSize the dataset, e.g. "HiBench large" or "3.2 GB"
 * @param date        ISO-8601 date of the profiling run
 * @param fabric      e.g. "InfiniBand 56 Gb/s", "netns testbed 100 Mbit/s"
 * @param source      provenance, e.g. "measured" or "estimated from the paper's figures, not measured"
 * @param machine     the machine(s) profiled on (CPU, cores, memory, kernel), free text
 * @param settings    how the profiler ran (levels, repetitions, the command or workload arguments), free text
 * @param r2ByDegree  R² of the fit at each degree tried (1..3), so a reader can see what the chosen degree bought;
 *                    empty when only one degree was fitted
 * @param method      how the samples were taken (under a cap, or beside a competitor); null when the table does not
 *                    say, which is read as the paper's cap method
 */
public record ProfilingContext(Integer nodes, String datasetSize, String date, String fabric, String source,
                               String machine, String settings, Map<Integer, Double> r2ByDegree,
                               ProfilingMethod method) {
    public static final ProfilingContext UNKNOWN = new ProfilingContext(null, null, null, null, null);

    public ProfilingContext {
        r2ByDegree = r2ByDegree == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(r2ByDegree));
    }

    /** Without a method (tables written before corun profiling existed, and entries not made by the profiler). */
    public ProfilingContext(Integer nodes, String datasetSize, String date, String fabric, String source,
                            String machine, String settings, Map<Integer, Double> r2ByDegree) {
        this(nodes, datasetSize, date, fabric, source, machine, settings, r2ByDegree, null);
    }

    /** The same context with the method its samples were taken by. */
    public ProfilingContext withMethod(ProfilingMethod m) {
        return new ProfilingContext(nodes, datasetSize, date, fabric, source, machine, settings, r2ByDegree, m);
    }

    /** Whether the samples were taken beside a competitor (corun profiling) rather than under a cap. */
    public boolean corun() {
        return method != null && method.corun();
    }

    /** The original five fields (tables written before machine, settings and per-degree R² existed). */
    public ProfilingContext(Integer nodes, String datasetSize, String date, String fabric, String source) {
        this(nodes, datasetSize, date, fabric, source, null, null, Map.of());
    }
}
