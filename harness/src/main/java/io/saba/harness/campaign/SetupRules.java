package io.saba.harness.campaign;

/**
 * The rules by which a campaign draws a cluster setup (paper §8.2).
 *
 * @param minJobs          fewest jobs drawn with replacement from the workloads (16 in the paper)
 * @param maxJobs          most jobs (16 in the paper: a fixed count, which draws no random number for it)
 * @param datasetScales    dataset sizes to draw from, relative to the profiled one ({0.1, 1, 10})
 * @param minInstances     fewest instances of a job (0.5x of 8 profiled nodes = 4)
 * @param maxInstances     most instances of a job (4x of 8 = 32)
 * @param maxJobsPerServer at most this many jobs share a server (16)
 */
public record SetupRules(int minJobs, int maxJobs, double[] datasetScales, int minInstances, int maxInstances,
                         int maxJobsPerServer) {
    public SetupRules {
        if (minJobs < 1 || maxJobs < minJobs || minInstances < 1 || maxInstances < minInstances
                || datasetScales.length == 0 || maxJobsPerServer < 1) {
            throw new IllegalArgumentException("setup rules need 1 <= minJobs <= maxJobs, 1 <= minInstances <= "
                    + "maxInstances, a dataset scale and maxJobsPerServer >= 1");
        }
    }

    /** A fixed number of jobs per setup. */
    public SetupRules(int jobsPerSetup, double[] datasetScales, int minInstances, int maxInstances,
                      int maxJobsPerServer) {
        this(jobsPerSetup, jobsPerSetup, datasetScales, minInstances, maxInstances, maxJobsPerServer);
    }

    public static SetupRules paper() {
        return new SetupRules(16, new double[] {0.1, 1, 10}, 4, 32, 16);
    }

    /**
     * The real-Spark campaign on the namespace testbed: 3–4 jobs, datasets of 0.5x, 1x or 2x the profiled one, 1 to
     * {@code workerHosts} instances (at most one per host), any number of jobs per host.
     */
    public static SetupRules namespaceTestbed(int workerHosts) {
        return new SetupRules(3, 4, new double[] {0.5, 1, 2}, 1, workerHosts, 4);
    }
}
