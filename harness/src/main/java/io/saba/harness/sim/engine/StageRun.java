package io.saba.harness.sim.engine;

/**
 * One run of one stage of one job, as it happened in a simulation ({@link Simulation#traceStageRuns}): when it
 * started and ended, when its computation ended, and when its shuffle started, drained and was done (done = drained
 * plus any queueing wait). Times in seconds from the simulation's start; the shuffle's times are NaN for a stage run
 * that shuffled nothing over the network (one instance, or no bytes).
 *
 * @param job               job id
 * @param workload          the job's workload
 * @param instances         n, the job's instances (its tasks in this stage run)
 * @param stage             stage index within the workload
 * @param run               run of that stage (0 … repeat − 1)
 * @param start             when the stage run started
 * @param end               when it ended: its computation and its shuffle both done
 * @param computeEnd        when its computation ended
 * @param shuffleStart      when its shuffle started
 * @param shuffleDrained    when the shuffle's last byte arrived
 * @param shuffleDone       when the stage stopped waiting for it
 * @param bytesPerFlow      bytes each of its n(n − 1) flows carried
 * @param aloneRatePerFlow  the rate each flow would have had with the job alone on the network (its per-flow send
 *                          cap, or the most contended port's capacity over the job's flows there): 100 % of the link
 */
public record StageRun(String job, String workload, int instances, int stage, int run, double start, double end,
                       double computeEnd, double shuffleStart, double shuffleDrained, double shuffleDone,
                       double bytesPerFlow, double aloneRatePerFlow) {

    /** Whether the stage run moved bytes over the network. */
    public boolean shuffled() {
        return !Double.isNaN(shuffleStart);
    }

    /** How long the stage run waited on the network after its computation ended (0 if it never did). */
    public double networkWaitSeconds() {
        return shuffled() ? Math.max(0, shuffleDone - computeEnd) : 0;
    }

    /**
     * The share of the link the job's shuffle received: its flows' mean rate over the shuffle (bytes over the time
     * from start to last byte) against the rate they would have had alone; what a byte counter on the job's
     * bottleneck port shows while it sends. NaN without a shuffle.
     */
    public double receivedShare() {
        if (!shuffled()) {
            return Double.NaN;
        }
        double seconds = shuffleDrained - shuffleStart;
        return seconds > 0 ? Math.min(1, bytesPerFlow / seconds / aloneRatePerFlow) : 1;
    }

    /** Bytes that crossed the network: every flow but the n local ones. */
    public double networkBytes() {
        return shuffled() ? bytesPerFlow * instances * (instances - 1.0) : 0;
    }
}
