package io.saba.core.corun;

import java.util.List;

/**
 * The straightforward replay, every pass reading every live application: the reference {@link PortReplay} must
 * match bit for bit. Test code only.
 *
 * <p>Replays applications' traffic records through one work-conserving weighted port, as a fluid: each application
 * alternates computing (which the port does not affect) and waiting for bytes, which it sends at up to its burst
 * rate; the applications waiting for bytes share the link in proportion to their weights, each taking at most its
 * burst rate, and what one leaves (idle, or capped) goes to the others (what HTB with ceil = link, weighted round
 * robin and InfiniBand VL arbitration do). Time and bytes are in link-seconds: one unit of bytes takes one second
 * at the full link rate.
 *
 * <p>Pure and deterministic: the same inputs give the same finish times. Cost: one step per phase change of any
 * application, so at most twice the records' intervals that send, in all.
 */
final class ReferenceReplay {
    private static final double EPS = 1e-12;

    private ReferenceReplay() {
    }

    /**
     * @param apps     the applications on the port
     * @param weights  their weights (any positive scale; only ratios among the applications sending matter)
     * @param offsets  where each starts in its record, in seconds of its alone run (0: from the beginning)
     * @return each application's finish time, seconds from now
     */
    static double[] finishTimes(List<CorunProfile> apps, double[] weights, double[] offsets) {
        int n = apps.size();
        double[][] phases = new double[n][]; // alternating compute seconds, transfer bytes
        int[] at = new int[n];
        double[] left = new double[n];
        double[] finish = new double[n];
        double[] burst = new double[n];
        double[] weight = new double[n]; // as the sharing reads them: never 0, so a 0 weight still gets leftovers
        int[] live = new int[n]; // the applications not done, in index order (sums keep their order, and results)
        int running = 0;
        for (int i = 0; i < n; i++) {
            double offset = offsets == null ? 0 : offsets[i];
            phases[i] = offset <= 0 ? apps.get(i).phasesFromStart() : phasesOf(apps.get(i), offset);
            at[i] = -1;
            burst[i] = apps.get(i).burstRate();
            weight[i] = Math.max(weights[i], EPS);
            if (advance(phases[i], at, left, i)) {
                live[running++] = i;
            }
        }
        double now = 0;
        double[] rate = new double[n];
        boolean[] fixed = new boolean[n];
        while (running > 0) {
            share(weight, burst, at, live, running, fixed, rate);
            double step = Double.POSITIVE_INFINITY;
            for (int k = 0; k < running; k++) {
                int i = live[k];
                if ((at[i] & 1) == 0) {
                    rate[i] = 1; // computing: time passes at its own pace
                }
                step = Math.min(step, left[i] / rate[i]);
            }
            now += step;
            int kept = 0;
            for (int k = 0; k < running; k++) {
                int i = live[k];
                left[i] -= rate[i] * step;
                if (left[i] <= EPS * Math.max(1, now) && !advance(phases[i], at, left, i)) {
                    finish[i] = now;
                } else {
                    live[kept++] = i;
                }
            }
            running = kept;
        }
        return finish;
    }

    /**
     * Weighted max-min with caps: the sending applications split the link by weight, none above its burst rate,
     * and what a capped one leaves goes to the others by weight (water-filling). Called at every step of a replay,
     * so it reads the live applications only and allocates nothing.
     */
    private static void share(double[] weight, double[] cap, int[] at, int[] live, int running, boolean[] fixed,
                              double[] rate) {
        for (int k = 0; k < running; k++) {
            fixed[live[k]] = false;
        }
        double left = 1;
        while (true) {
            double w = 0;
            for (int k = 0; k < running; k++) {
                int i = live[k];
                if ((at[i] & 1) == 1 && !fixed[i]) {
                    w += weight[i];
                }
            }
            if (w == 0) {
                return;
            }
            boolean capped = false;
            for (int k = 0; k < running; k++) {
                int i = live[k];
                if ((at[i] & 1) == 1 && !fixed[i] && left * weight[i] / w >= cap[i]) {
                    rate[i] = cap[i];
                    fixed[i] = true;
                    left -= cap[i];
                    capped = true;
                }
            }
            if (!capped) {
                for (int k = 0; k < running; k++) {
                    int i = live[k];
                    if ((at[i] & 1) == 1 && !fixed[i]) {
                        rate[i] = left * weight[i] / w;
                    }
                }
                return;
            }
        }
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
     * Phases from {@code offset} seconds into the run: even indices compute (seconds), odd ones transfer (bytes, in
     * link-seconds). Alone each interval lasts its length: its bytes at the burst rate, the rest computing.
     */
    static double[] phasesOf(CorunProfile p, double offset) {
        double dt = p.record().intervalSeconds();
        double r = p.burstRate();
        double[] bytes = p.waitedBytes();
        double[] out = new double[2 * bytes.length];
        int n = 0;
        double computing = 0; // computation not yet followed by a transfer: intervals that send nothing join the next
        double skip = Math.max(0, offset);
        for (int k = 0; k < bytes.length; k++) {
            double x = bytes[k] * dt;
            double sending = Math.min(dt, x / r); // seconds at the burst rate
            double compute = dt - sending;
            double c = Math.min(compute, skip);
            skip -= c;
            double t = Math.min(sending, skip);
            skip -= t;
            computing += compute - c;
            double transfer = (sending - t) * r;
            if (transfer > EPS && computing <= EPS && n > 0) {
                // sent back to back with the last transfer (a replay skips a compute this short): one phase, and
                // one step of every replay instead of one per interval; a burst of 10 intervals is 1 step, not 10
                out[n - 1] += transfer;
                computing = 0;
            } else if (transfer > EPS) {
                out[n++] = computing;
                out[n++] = transfer;
                computing = 0;
            }
        }
        if (computing > EPS) {
            out[n++] = computing;
            out[n++] = 0;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Seconds an application has left alone at full rate from {@code offset}. */
    static double aloneSeconds(CorunProfile p, double offset) {
        return Math.max(0, p.record().seconds() - Math.max(0, offset));
    }
}
