package io.saba.harness.realspark;

/**
 * A job's result in one run (baseline or Saba): its own time, or why there is none.
 *
 * @param seconds the job's time from its {@code SABA_RESULT ... seconds=} line; NaN when it failed
 * @param failure why it failed (exit status, timeout, no result line), null when it did not
 */
public record RunOutcome(double seconds, String failure) {
    public static RunOutcome ok(double seconds) {
        return new RunOutcome(seconds, null);
    }

    public static RunOutcome failed(String why) {
        return new RunOutcome(Double.NaN, why);
    }

    public boolean ok() {
        return failure == null;
    }
}
