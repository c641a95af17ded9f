package io.saba.core.table;

/**
 * Where and how a workload was profiled: what a reader needs to judge whether the model applies to a run.
 * Every field may be null when unknown.
 *
 * @param nodes       number of nodes the workload ran on
 * @param datasetSize the dataset, e.g. "HiBench large" or "3.2 GB"
 * @param date        ISO-8601 date of the profiling run
 * @param fabric      e.g. "InfiniBand 56 Gb/s", "netns testbed 100 Mbit/s"
 * @param source      provenance, e.g. "measured" or "estimated from the paper's figures, not measured"
 */
public record ProfilingContext(Integer nodes, String datasetSize, String date, String fabric, String source) {
    public static final ProfilingContext UNKNOWN = new ProfilingContext(null, null, null, null, null);
}
