package io.saba.core.estimate;

/**
 * One unit of an application's work (a Spark stage, a Flink task) as the online estimator sees it: the run time of
 * its tasks, the part of that time they spent blocked on the network, the share of the link the application had
 * meanwhile, and the bytes it moved (how much an estimate rests on, for the status pages; the estimate itself
 * weighs units by time, see {@link SensitivityEstimate}).
 *
 * @param runMillis         task run time, summed over the unit's tasks, &gt; 0
 * @param networkWaitMillis the part of it spent blocked on the network, 0 ≤ wait ≤ run
 * @param share             the fraction of the link the application had while the unit ran, 0 &lt; share ≤ 1
 * @param bytes             bytes the unit moved, ≥ 0
 */
public record Observation(long runMillis, long networkWaitMillis, double share, long bytes) {
    public Observation {
        if (runMillis <= 0) {
            throw new IllegalArgumentException("an observation needs run time, got " + runMillis + " ms");
        }
        if (networkWaitMillis < 0 || networkWaitMillis > runMillis) {
            throw new IllegalArgumentException("network wait must be within the run time (0 to " + runMillis
                    + " ms), got " + networkWaitMillis + " ms");
        }
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in (0, 1], got " + share);
        }
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be ≥ 0, got " + bytes);
        }
    }

    /** w: network wait over run time. */
    public double waitFraction() {
        return (double) networkWaitMillis / runMillis;
    }

    /** c: the time that does not depend on bandwidth (the run time not spent waiting on the network). */
    public double computeMillis() {
        return runMillis - networkWaitMillis;
    }

    /** n: what the network wait would have been at the full link (the wait scales as 1/share). */
    public double networkMillisAtFullLink() {
        return networkWaitMillis * share;
    }

    /** c + n: the unit's run time at the full link. */
    public double millisAtFullLink() {
        return computeMillis() + networkMillisAtFullLink();
    }
}
