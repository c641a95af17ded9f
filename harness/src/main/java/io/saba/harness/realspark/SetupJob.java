package io.saba.harness.realspark;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One job of a real-Spark setup: a workload driver on h1 with one executor on each of its hosts.
 *
 * @param id       "s&lt;setup&gt;-j&lt;job&gt;"
 * @param workload workload name (a sensitivity-table key)
 * @param factor   dataset factor relative to the profiled dataset (the workload's {@code --factor})
 * @param hosts    testbed host indices of its instances (2..N, distinct, ascending)
 */
public record SetupJob(String id, String workload, double factor, List<Integer> hosts) {
    public SetupJob {
        hosts = hosts.stream().sorted().distinct().toList();
    }

    public int instances() {
        return hosts.size();
    }

    /** "s0-j1 sort x0.5 on h2,h4", for progress lines. */
    public String describe() {
        return id + " " + workload + " x" + JobsCsv.factor(factor) + " on " + hostList().replace(';', ',');
    }

    /** "h2;h4": the CSV's host column. */
    public String hostList() {
        return hosts.stream().map(h -> "h" + h).collect(Collectors.joining(";"));
    }
}
