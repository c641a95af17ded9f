package io.saba.core.estimate;

/**
 * One unit of an application's work (a Spark stage, a Flink task) as the online estimator sees it: how long it ran,
 * the part of that time that was the network's, the share of the link the application had meanwhile, the bytes it
 * moved, and which signal the network part was read from.
 *
 * <p>Two signals give the network part ({@link Signal}). From the engine's wait counter
 * ({@link Signal#NETWORK_WAIT}): the task run time, summed over the unit's tasks, and the part of it the tasks were
 * blocked on the network. From the bytes ({@link Signal#LINK_BYTES}, {@link #ofLinkBytes}): the unit's wall
 * duration, and the time its busiest host link needed to carry the bytes the unit moved over it at the share it had.
 * Either way {@link SensitivityEstimate} reads the same T(s) = c + n/s from it.
 *
 * @param runMillis         the unit's time, &gt; 0: task run time (wait signal) or wall duration (link signal)
 * @param networkWaitMillis the part of it that was the network's, 0 ≤ it ≤ run
 * @param share             the fraction of the link the application had while the unit ran, 0 &lt; share ≤ 1
 * @param bytes             bytes the unit moved over the network, ≥ 0
 * @param signal            where the network part comes from
 */
public record Observation(long runMillis, long networkWaitMillis, double share, long bytes, Signal signal) {
    /** Where an observation's network part comes from. */
    public enum Signal {
        /** The engine's count of the time tasks were blocked on the network (Spark's fetch wait, Flink's idle). */
        NETWORK_WAIT("wait"),
        /** The bytes the unit moved on its busiest host link over the link's rate. */
        LINK_BYTES("link");

        private final String label;

        Signal(String label) {
            this.label = label;
        }

        /** What the status pages and the log call it. */
        public String label() {
            return label;
        }
    }

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
        java.util.Objects.requireNonNull(signal, "signal");
    }

    /** An observation read from the engine's wait counter. */
    public Observation(long runMillis, long networkWaitMillis, double share, long bytes) {
        this(runMillis, networkWaitMillis, share, bytes, Signal.NETWORK_WAIT);
    }

    /**
     * A unit's observation from the bytes its busiest host link carried. At the full link those bytes need
     * n = linkBytes · 8 / rate; at share s of the link, n/s. That is the unit's network part, at most its wall
     * duration, and the rest of the duration is the time that does not depend on bandwidth.
     *
     * <p>The share is the application's weight, but a work-conserving port gives an application what the others
     * leave idle, so a unit may use more of its link than its weight: it then had at least the share it used, n/D.
     * Taking the weight there would stretch n/s past the duration and, capped at it, shrink the unit to D·s at the
     * full link: a Sort shuffle that moved 70 MB in 51 s (n = 28 s at 20 Mbit/s) under a weight of 5 % counted as
     * 2.6 s at the full link and left Sort looking insensitive. With the share it used, n stays 28 s. (More bytes
     * than the full link carries in D mean they were spread over more links than assumed: the unit is all network.)
     *
     * @param durationMillis    the unit's wall duration, &gt; 0
     * @param linkBytes         bytes on its busiest host link, ≥ 0
     * @param linkBitsPerSecond that link's rate, &gt; 0
     * @param share             the share of the link the application's weight gave it, in (0, 1]
     * @param bytes             every byte the unit moved over the network (shown on the status pages)
     */
    public static Observation ofLinkBytes(long durationMillis, long linkBytes, double linkBitsPerSecond, double share,
                                          long bytes) {
        if (!(linkBitsPerSecond > 0) || Double.isInfinite(linkBitsPerSecond)) {
            throw new IllegalArgumentException("a link rate must be positive and finite, got " + linkBitsPerSecond);
        }
        if (linkBytes < 0) {
            throw new IllegalArgumentException("link bytes must be ≥ 0, got " + linkBytes);
        }
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("share must be in (0, 1], got " + share);
        }
        double atFullLink = linkBytes * 8.0 / linkBitsPerSecond * 1000;
        double had = Math.min(1, Math.max(share, atFullLink / durationMillis));
        long network = Math.round(Math.min(atFullLink / had, durationMillis));
        return new Observation(durationMillis, network, had, bytes, Signal.LINK_BYTES);
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
