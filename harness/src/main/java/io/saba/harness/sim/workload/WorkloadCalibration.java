package io.saba.harness.sim.workload;

/**
 * One row of a calibration table: the few numbers that decide how bandwidth-sensitive a workload is, from which
 * {@link #toSpec} derives stage parameters.
 *
 * <p>A workload run alone on its profiled nodes takes {@code profiledSeconds} at full link rate; a fraction
 * {@code commFraction} of that is shuffle, the rest compute (of which 5 % per stage is fixed overhead); one
 * instance can send at most {@code sendCap} of the line rate. Throttled to a share b, the shuffle slows by
 * {@code sendCap / min(b, sendCap)}, so the profiled slowdown is D(b) = 1 − f + f·r / min(b, r).
 *
 * @param name            profile key
 * @param profiledSeconds completion time alone at 1x on the profiled nodes, full bandwidth
 * @param commFraction    f, share of that time spent shuffling
 * @param sendCap         r, the most an instance sends, as a fraction of the line rate
 * @param stageRuns       how many compute+shuffle rounds (iterations) it runs
 */
public record WorkloadCalibration(String name, double profiledSeconds, double commFraction, double sendCap,
                                  int stageRuns) {
    /** Fixed per-stage overhead as a share of a stage's time at 1x: what a smaller dataset cannot shrink. */
    public static final double FIXED_SHARE = 0.05;

    /** The slowdown this calibration predicts when run alone at share b: what the profiler should measure. */
    public double expectedSlowdown(double b) {
        return 1 - commFraction + commFraction * sendCap / Math.min(b, sendCap);
    }

    /**
     * @param profiledNodes nodes it is profiled on
     * @param lineRate      bytes per second of a host link
     */
    public WorkloadSpec toSpec(int profiledNodes, double lineRate) {
        double stage = profiledSeconds / stageRuns;
        double fixed = FIXED_SHARE * stage;
        double compute = (1 - commFraction) * stage - fixed;
        if (compute < 0) {
            throw new IllegalArgumentException(name + ": compute share below the fixed overhead");
        }
        int n = profiledNodes;
        // Alone on n nodes each flow gets sendCap·line/(n−1); a flow carries S/n² bytes; shuffle time = f·stage.
        double shuffleBytes = commFraction * stage * sendCap * lineRate * n * n / (n - 1.0);
        StageSpec s = new StageSpec(stageRuns, compute, shuffleBytes, 0.0);
        return new WorkloadSpec(name, profiledNodes, fixed, sendCap, java.util.List.of(s));
    }
}
