package io.saba.harness.campaign;

/**
 * The rules by which the testbed campaign draws a cluster setup (paper §8.2).
 *
 * @param jobsPerSetup     jobs drawn with replacement from the workloads (16)
 * @param datasetScales    dataset sizes to draw from, relative to the profiled one ({0.1, 1, 10})
 * @param minInstances     fewest instances of a job (0.5x of 8 profiled nodes = 4)
 * @param maxInstances     most instances of a job (4x of 8 = 32)
 * @param maxJobsPerServer at most this many jobs share a server (16)
 */
public record SetupRules(int jobsPerSetup, double[] datasetScales, int minInstances, int maxInstances,
                         int maxJobsPerServer) {
    public static SetupRules paper() {
        return new SetupRules(16, new double[] {0.1, 1, 10}, 4, 32, 16);
    }
}
