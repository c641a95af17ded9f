package io.saba.harness.sim.workload;

import java.util.List;

/**
 * One job to simulate: a workload at a dataset scale, with one instance on each listed host.
 *
 * @param id           unique within a simulation
 * @param workload     what it runs
 * @param datasetScale dataset size relative to the profiled one (0.1, 1, 10, …)
 * @param hosts        the hosts of its instances (distinct)
 */
public record JobSpec(String id, WorkloadSpec workload, double datasetScale, List<String> hosts) {
    public JobSpec {
        hosts = List.copyOf(hosts);
        if (hosts.size() != hosts.stream().distinct().count()) {
            throw new IllegalArgumentException("job " + id + ": at most one instance per host");
        }
    }
}
