package io.saba.core.corun;

import java.util.List;

/**
 * Predicts the slowdown of applications that share one work-conserving weighted port, from their co-run profiles:
 * each application's completion time on the shared port over its completion time alone, by replaying their traffic
 * records through the port ({@link PortReplay}).
 *
 * <p>What it captures that a static share cannot: an application at weight w gets w only while the others send,
 * and all of the link while they compute; jobs end at different times, and the one left runs alone. What it leaves
 * out: the queueing delay a FIFO adds to small messages, CPU contention, and the other ports of a path.
 */
public final class CorunPredictor {
    private CorunPredictor() {
    }

    /** Each application's predicted slowdown (≥ 1) under {@code weights}, all starting at the beginning. */
    public static double[] slowdowns(List<CorunProfile> apps, double[] weights) {
        return slowdowns(apps, weights, null);
    }

    /**
     * @param offsets where each application is in its run, in seconds of its alone run, or null for all at 0
     */
    public static double[] slowdowns(List<CorunProfile> apps, double[] weights, double[] offsets) {
        return slowdowns(apps, weights, offsets, Double.POSITIVE_INFINITY);
    }

    /** As above, or null once their sum is certain to be at least {@code limit} ({@link PortReplay}'s bound). */
    private static double[] slowdowns(List<CorunProfile> apps, double[] weights, double[] offsets, double limit) {
        if (weights.length != apps.size() || (offsets != null && offsets.length != apps.size())) {
            throw new IllegalArgumentException(apps.size() + " applications but " + weights.length + " weights"
                    + (offsets == null ? "" : " and " + offsets.length + " offsets"));
        }
        for (double w : weights) {
            if (!(w >= 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("weights must be finite and ≥ 0, got " + w);
            }
        }
        double[] finish = PortReplay.finishTimes(apps, weights, offsets, limit);
        if (finish == null) {
            return null;
        }
        double[] d = new double[apps.size()];
        for (int i = 0; i < d.length; i++) {
            double alone = PortReplay.aloneSeconds(apps.get(i), offsets == null ? 0 : offsets[i]);
            d[i] = alone <= 0 ? 1 : Math.max(1, finish[i] / alone);
        }
        return d;
    }

    /** The objective the allocator minimises: the sum of the predicted slowdowns. */
    public static double total(List<CorunProfile> apps, double[] weights, double[] offsets) {
        return total(apps, weights, offsets, Double.POSITIVE_INFINITY);
    }

    /**
     * {@link #total(List, double[], double[])} when it is below {@code limit}, bit for bit; otherwise a value at
     * least {@code limit} (+∞ when the replay gave up early): what a search that only keeps candidates below the
     * best so far needs.
     */
    static double total(List<CorunProfile> apps, double[] weights, double[] offsets, double limit) {
        double[] slowdowns = slowdowns(apps, weights, offsets, limit);
        if (slowdowns == null) {
            return Double.POSITIVE_INFINITY;
        }
        double s = 0;
        for (double d : slowdowns) {
            s += d;
        }
        return s;
    }
}
