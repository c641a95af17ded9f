package io.saba.harness.sim.workload;

import java.util.List;

/**
 * One row of a calibration table: the few numbers that decide how bandwidth-sensitive a workload is, from which
 * {@link #toSpec} derives stage parameters.
 *
 * <p>Per stage, normalised to the stage's time alone at full rate: the shuffle would take {@code s} at line rate,
 * and it may run concurrently with the last fraction {@code o} of the compute c (Spark's reducers fetch while
 * mappers still run; Flink pipelines). So T(b) = max(c, (1 − o)·c + s / b) and the profiled slowdown is
 * D(b) = T(b) / T(1). A workload whose shuffle hides under its compute (s ≤ o·c) is insensitive near full rate
 * yet still moves its bytes at whatever rate it gets, which is the case Saba exploits: it competes for the link
 * without needing it. c is set so that T(1) = 1: c = 1 if the shuffle hides, else (1 − s) / (1 − o).
 *
 * @param name            profile key
 * @param profiledSeconds completion time alone at 1x on the profiled nodes, full bandwidth
 * @param shuffleShare    s, line-rate shuffle time as a share of the stage time
 * @param overlap         o, share of the compute the shuffle may overlap
 * @param stageRuns       how many compute+shuffle rounds (iterations) it runs
 */
public record WorkloadCalibration(String name, double profiledSeconds, double shuffleShare, double overlap,
                                  int stageRuns) {
    /** Fixed per-stage overhead as a share of a stage's time at 1x: what a smaller dataset cannot shrink. */
    public static final double FIXED_SHARE = 0.05;

    /** Compute share c of a stage (see the class comment). */
    public double computeShare() {
        return shuffleShare <= overlap ? 1.0 : (1 - shuffleShare) / (1 - overlap);
    }

    /** The slowdown this calibration predicts when run alone at share b: what the profiler should measure. */
    public double expectedSlowdown(double b) {
        double c = computeShare();
        return Math.max(c, (1 - overlap) * c + shuffleShare / b) / Math.max(c, (1 - overlap) * c + shuffleShare);
    }

    /**
     * @param profiledNodes nodes it is profiled on
     * @param lineRate      bytes per second of a host link
     */
    public WorkloadSpec toSpec(int profiledNodes, double lineRate) {
        double stage = profiledSeconds / stageRuns;
        double c = computeShare() * stage;
        double fixed = FIXED_SHARE * stage;
        double commStart = (1 - overlap) * c;
        if (commStart < fixed) {
            throw new IllegalArgumentException(name + ": the shuffle would start inside the fixed overhead");
        }
        double scaled = c - fixed;
        // The engine overlaps a fraction of the scaled compute only (the fixed part always comes first).
        double engineOverlap = 1 - (commStart - fixed) / scaled;
        int n = profiledNodes;
        // Alone on n nodes each flow gets line/(n−1); a flow carries S/n² bytes; shuffle time = s·stage.
        double shuffleBytes = shuffleShare * stage * lineRate * n * n / (n - 1.0);
        StageSpec st = new StageSpec(stageRuns, scaled, shuffleBytes, engineOverlap);
        return new WorkloadSpec(name, profiledNodes, fixed, 1.0, List.of(st));
    }
}
