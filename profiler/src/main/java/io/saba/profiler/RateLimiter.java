package io.saba.profiler;

/**
 * Enforces a bandwidth level during a profiling run. {@link #apply} must leave the limit in force when it
 * returns, or throw: a run at an unknown rate would be a wrong sample, so the profile stops instead.
 */
public interface RateLimiter {
    /** Limits the workload's links to {@code percent} % of their rate (100 = unthrottled). */
    void apply(double percent);

    /** Back to the full link rate (after the profile, or when it is interrupted). */
    default void reset() {
        apply(100);
    }

    /** The fabric as the table's context records it, e.g. "netns testbed tb: 3 hosts, 200 Mbit/s links". */
    String fabric();
}
