package io.saba.harness.campaign;

import java.util.List;

/**
 * One job of a drawn setup.
 *
 * @param id           "s&lt;setup&gt;-j&lt;job&gt;"
 * @param workload     what runs (a simulator workload, or a workload name on a real cluster)
 * @param datasetScale dataset relative to the profiled one
 * @param hosts        the distinct hosts of its instances
 */
public record DrawnJob<W>(String id, W workload, double datasetScale, List<String> hosts) {
    public DrawnJob {
        hosts = List.copyOf(hosts);
    }
}
