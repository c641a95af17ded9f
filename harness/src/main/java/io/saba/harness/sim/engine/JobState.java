package io.saba.harness.sim.engine;

import io.saba.harness.sim.workload.WorkloadSpec;

/**
 * Where a job is in its workload: the stage and the run within it, which halves of the current stage run are done,
 * and that run's times, which {@link Simulation#traceStageRuns} reports.
 */
final class JobState {
    int stage;
    int run;
    boolean computeDone;
    boolean shuffleDone;
    double runStart;
    double computeEnd;
    double shuffleStart;
    double shuffleDrained;
    double shuffleDoneAt;
    double bytesPerFlow;
    double aloneRatePerFlow;

    /** Starts a stage run at {@code now} whose flows carry {@code bytesPerFlow} each: nothing of it done yet. */
    void begin(double now, double bytesPerFlow) {
        computeDone = false;
        shuffleDone = false;
        runStart = now;
        shuffleStart = Double.NaN;
        shuffleDrained = Double.NaN;
        shuffleDoneAt = Double.NaN;
        this.bytesPerFlow = bytesPerFlow;
    }

    boolean runDone() {
        return computeDone && shuffleDone;
    }

    /** The current stage run of {@code job}, ended at {@code end}. */
    StageRun stageRun(SimJob job, double end) {
        return new StageRun(job.id(), job.workload(), job.instances(), stage, run, runStart, end, computeEnd,
                shuffleStart, shuffleDrained, shuffleDoneAt, bytesPerFlow, aloneRatePerFlow);
    }

    /**
     * Moves on to the stage run after the current one.
     *
     * @return false when the workload has none left
     */
    boolean next(WorkloadSpec w) {
        run++;
        if (run >= w.stages().get(stage).repeat()) {
            run = 0;
            stage++;
        }
        return stage < w.stages().size();
    }
}
