package io.saba.profiler;

import java.util.Objects;

/**
 * One profiling run of a workload at one bandwidth level: its completion time, or why it produced none. A failed
 * or timed-out run is kept (so a resumed profile does not repeat it blindly) but never becomes a sample.
 *
 * @param bandwidthPercent the link share the run was limited to, 0 &lt; b ≤ 100
 * @param repetition       0-based repetition at that level
 * @param seconds          completion time; NaN unless {@code outcome} is {@link Outcome#COMPLETED}
 * @param outcome          how the run ended
 * @param detail           for failures, what happened (exit code, last error line); may be empty
 */
public record RunRecord(double bandwidthPercent, int repetition, double seconds, Outcome outcome, String detail) {
    /** How a run ended. */
    public enum Outcome { COMPLETED, FAILED, TIMED_OUT }

    public RunRecord {
        Objects.requireNonNull(outcome, "outcome");
        detail = detail == null ? "" : detail;
        if (outcome == Outcome.COMPLETED && !(seconds > 0 && Double.isFinite(seconds))) {
            throw new IllegalArgumentException("a completed run at " + bandwidthPercent + " % needs a positive time, got "
                    + seconds);
        }
    }

    public static RunRecord completed(double bandwidthPercent, int repetition, double seconds) {
        return new RunRecord(bandwidthPercent, repetition, seconds, Outcome.COMPLETED, "");
    }

    public static RunRecord failed(double bandwidthPercent, int repetition, Outcome outcome, String detail) {
        return new RunRecord(bandwidthPercent, repetition, Double.NaN, outcome, detail);
    }

    public boolean completed() {
        return outcome == Outcome.COMPLETED;
    }
}
