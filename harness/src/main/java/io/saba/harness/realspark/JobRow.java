package io.saba.harness.realspark;

import io.saba.harness.campaign.JobOutcome;

/**
 * One job of one setup under both runs: a row of jobs.csv.
 *
 * @param setup    setup index
 * @param job      what ran where
 * @param baseline plain Spark, every port one FIFO
 * @param saba     Saba's shuffle manager, a controller programming every port
 * @param note     what else was seen (failures, placement or registration problems); empty if nothing
 */
public record JobRow(int setup, SetupJob job, RunOutcome baseline, RunOutcome saba, String note) {
    public boolean complete() {
        return baseline.ok() && saba.ok();
    }

    /** Baseline time / Saba time (above 1 Saba is faster); NaN unless both runs succeeded. */
    public double speedup() {
        return complete() ? baseline.seconds() / saba.seconds() : Double.NaN;
    }

    /** The simulated campaign's row, for its statistics (only for complete rows). */
    public JobOutcome outcome() {
        if (!complete()) {
            throw new IllegalStateException(job.id() + " has no time in one of its runs");
        }
        return new JobOutcome(setup, job.id(), job.workload(), job.factor(), job.instances(), baseline.seconds(),
                saba.seconds());
    }
}
