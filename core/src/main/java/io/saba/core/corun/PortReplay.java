package io.saba.core.corun;

import java.util.ArrayList;
import java.util.List;

/**
 * Replays applications' traffic records through one work-conserving weighted port, as a fluid: each application
 * alternates computing (which the port does not affect) and waiting for bytes; the applications waiting for bytes
 * share the link in proportion to their weights, and an idle application's share goes to the others (what HTB with
 * ceil = link, weighted round robin and InfiniBand VL arbitration do). Time and bytes are in link-seconds: a
 * transfer that took one second alone at full rate is one unit of bytes.
 *
 * <p>Pure and deterministic: the same inputs give the same finish times. Cost: one step per phase change of any
 * application, so about twice the records' intervals in all.
 */
final class PortReplay {
    private static final double EPS = 1e-12;

    private PortReplay() {
    }

    /**
     * @param apps     the applications on the port
     * @param weights  their weights (any positive scale; only ratios among the applications sending matter)
     * @param offsets  where each starts in its record, in seconds of its alone run (0: from the beginning)
     * @return each application's finish time, seconds from now
     */
    static double[] finishTimes(List<CorunProfile> apps, double[] weights, double[] offsets) {
        int n = apps.size();
        List<double[]> phases = new ArrayList<>(n); // alternating compute, transfer durations at full rate
        int[] at = new int[n];
        double[] left = new double[n];
        double[] finish = new double[n];
        boolean[] done = new boolean[n];
        for (int i = 0; i < n; i++) {
            phases.add(phasesOf(apps.get(i), offsets == null ? 0 : offsets[i]));
            at[i] = -1;
            done[i] = !advance(phases.get(i), at, left, i);
        }
        double now = 0;
        int running = 0;
        for (boolean d : done) {
            running += d ? 0 : 1;
        }
        double[] rate = new double[n];
        while (running > 0) {
            double sendingWeight = 0;
            for (int i = 0; i < n; i++) {
                if (!done[i] && at[i] % 2 == 1) {
                    sendingWeight += Math.max(weights[i], EPS);
                }
            }
            double step = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (done[i]) {
                    continue;
                }
                rate[i] = at[i] % 2 == 0 ? 1 : Math.max(weights[i], EPS) / sendingWeight;
                step = Math.min(step, left[i] / rate[i]);
            }
            now += step;
            for (int i = 0; i < n; i++) {
                if (done[i]) {
                    continue;
                }
                left[i] -= rate[i] * step;
                if (left[i] <= EPS * Math.max(1, now) && !advance(phases.get(i), at, left, i)) {
                    done[i] = true;
                    finish[i] = now;
                    running--;
                }
            }
        }
        return finish;
    }

    /** Moves application i to its next non-empty phase; false when it has none left. */
    private static boolean advance(double[] phases, int[] at, double[] left, int i) {
        do {
            at[i]++;
        } while (at[i] < phases.length && phases[at[i]] <= EPS);
        if (at[i] >= phases.length) {
            return false;
        }
        left[i] = phases[at[i]];
        return true;
    }

    /**
     * Phase durations at full rate, even indices computing and odd ones transferring, from {@code offset} seconds
     * into the run.
     */
    static double[] phasesOf(CorunProfile p, double offset) {
        double dt = p.record().intervalSeconds();
        double[] s = p.waitingShares();
        double[] out = new double[2 * s.length];
        double skip = Math.max(0, offset);
        for (int k = 0; k < s.length; k++) {
            double compute = (1 - s[k]) * dt;
            double transfer = s[k] * dt;
            double c = Math.min(compute, skip);
            skip -= c;
            double t = Math.min(transfer, skip);
            skip -= t;
            out[2 * k] = compute - c;
            out[2 * k + 1] = transfer - t;
        }
        return out;
    }

    /** Seconds an application has left alone at full rate from {@code offset}. */
    static double aloneSeconds(CorunProfile p, double offset) {
        return Math.max(0, p.record().seconds() - Math.max(0, offset));
    }
}
