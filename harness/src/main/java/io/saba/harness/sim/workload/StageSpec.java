package io.saba.harness.sim.workload;

/**
 * One stage of a workload, as profiled (1x dataset on the workload's profiled node count).
 *
 * @param repeat         how many times the stage runs back to back (iterative algorithms)
 * @param computeSeconds compute time of one instance per run, at 1x on the profiled node count; the work is
 *                       spread over the instances, so with n instances it becomes computeSeconds·profiled/n
 * @param shuffleBytes   all-to-all: bytes the job shuffles per run at 1x (each instance holds 1/n of them and keeps
 *                       its own 1/n locally); driver: bytes the other instances send into the driver per run at 1x
 *                       (task results), whatever the instances
 * @param overlap        fraction of the compute that can overlap the shuffle (0 = strictly compute then shuffle)
 * @param exchange       how the bytes move between the instances
 * @param broadcastBytes driver only: bytes the driver sends out to the other instances as each run starts, at 1x
 */
public record StageSpec(int repeat, double computeSeconds, double shuffleBytes, double overlap, Exchange exchange,
                        double broadcastBytes) {
    /** How a stage's bytes move between a job's instances. */
    public enum Exchange {
        /** Every instance sends to every other: a shuffle. */
        ALL_TO_ALL,
        /**
         * Instance 0 is the driver: it broadcasts to the others as a run starts, and after their compute they send it
         * their results, as Spark's LR and SVM do (examples/workload-records): the driver's link carries it all.
         */
        DRIVER
    }

    /** An all-to-all stage. */
    public StageSpec(int repeat, double computeSeconds, double shuffleBytes, double overlap) {
        this(repeat, computeSeconds, shuffleBytes, overlap, Exchange.ALL_TO_ALL, 0);
    }

    public StageSpec {
        if (repeat < 1 || computeSeconds < 0 || shuffleBytes < 0 || overlap < 0 || overlap > 1 || exchange == null
                || broadcastBytes < 0 || (exchange == Exchange.ALL_TO_ALL && broadcastBytes != 0)) {
            throw new IllegalArgumentException("bad stage: repeat=" + repeat + " compute=" + computeSeconds
                    + " bytes=" + shuffleBytes + " overlap=" + overlap + " exchange=" + exchange + " broadcast="
                    + broadcastBytes);
        }
    }
}
