package io.saba.core.corun;

import java.util.List;

/**
 * Replays applications' traffic records through one work-conserving weighted port, as a fluid: each application
 * alternates computing (which the port does not affect) and waiting for bytes, which it sends at up to its burst
 * rate; the applications waiting for bytes share the link in proportion to their weights, each taking at most its
 * burst rate, and what one leaves (idle, or capped) goes to the others (what HTB with ceil = link, weighted round
 * robin and InfiniBand VL arbitration do). Time and bytes are in link-seconds: one unit of bytes takes one second
 * at the full link rate.
 *
 * <p>Pure and deterministic: the same inputs give the same finish times. Cost: one step per phase change of any
 * application, so at most twice the records' intervals that send, in all.
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
        return finishTimes(apps, weights, offsets, Double.POSITIVE_INFINITY);
    }

    /**
     * As {@link #finishTimes(List, double[], double[])}, but gives up, returning null, as soon as the applications'
     * total slowdown ({@link CorunPredictor#total}) is certain to be at least {@code limit}: a weight search only
     * needs a candidate's total when it beats the best so far, and most candidates lose long before their replay
     * ends. When it does not give up, the finish times are those of the full replay, bit for bit (the same steps
     * run; the check only reads them).
     *
     * <p>The bound: an application never goes faster than alone (computing at its own pace, sending at most at
     * its burst rate), so it cannot finish before now plus what it has left of its alone run. Each unfinished
     * application's slowdown is bounded below by that, each finished one's is known, and a sum of lower bounds
     * taken in the same order as the total's is a lower bound of the total also in floating point (rounding is
     * monotonic). The bound is shrunk by {@link #SAFE} for the replay's own tolerances (a phase counts as done
     * {@link #EPS} early), so giving up never drops a candidate the full replay would have kept.
     *
     * @param limit the total at or above which the caller does not need the finish times (+∞: never give up)
     */
    static double[] finishTimes(List<CorunProfile> apps, double[] weights, double[] offsets, double limit) {
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
        boolean bounded = limit < Double.POSITIVE_INFINITY;
        double[] alone = null;
        double[][] rest = null;
        if (bounded) {
            alone = new double[n];
            rest = new double[n][];
            for (int i = 0; i < n; i++) {
                double offset = offsets == null ? 0 : offsets[i];
                alone[i] = aloneSeconds(apps.get(i), offset);
                rest[i] = offset <= 0 ? apps.get(i).aloneAfterFromStart() : aloneAfter(phases[i], burst[i]);
            }
        }
        // The applications sending (in index order) and the sum of their weights, and the least time any computing
        // one has left: gathered in the pass that moves every application on, so each step reads the live ones
        // once more, not once per question.
        int[] sending = new int[n];
        int[] unfixed = new int[n];
        int senders = 0;
        double sendingWeight = 0;
        double computeLeast = Double.POSITIVE_INFINITY;
        for (int k = 0; k < running; k++) {
            int i = live[k];
            if ((at[i] & 1) == 1) {
                sending[senders++] = i;
                sendingWeight += weight[i];
            } else {
                computeLeast = Math.min(computeLeast, left[i]);
            }
        }
        int untilCheck = CHECK_EVERY;
        while (running > 0) {
            if (bounded && --untilCheck == 0) {
                untilCheck = CHECK_EVERY;
                if (totalAtLeast(phases, at, left, finish, burst, alone, rest, now) >= limit) {
                    return null;
                }
            }
            double step = Math.min(computeLeast,
                    share(weight, burst, sending, senders, sendingWeight, unfixed, rate, left));
            now += step;
            int kept = 0;
            senders = 0;
            sendingWeight = 0;
            computeLeast = Double.POSITIVE_INFINITY;
            double done = EPS * Math.max(1, now);
            for (int k = 0; k < running; k++) {
                int i = live[k];
                // computing: time passes at its own pace (rate 1, and left − 1·step is left − step exactly)
                left[i] -= (at[i] & 1) == 0 ? step : rate[i] * step;
                if (left[i] <= done && !advance(phases[i], at, left, i)) {
                    finish[i] = now;
                    continue;
                }
                live[kept++] = i;
                if ((at[i] & 1) == 1) {
                    sending[senders++] = i;
                    sendingWeight += weight[i];
                } else {
                    computeLeast = Math.min(computeLeast, left[i]);
                }
            }
            running = kept;
        }
        return finish;
    }

    /** Steps of a bounded replay between two checks of its bound: a check costs about as much as a step, and checking
     * every step costs more than giving up a few steps sooner saves. */
    private static final int CHECK_EVERY = 16;
    /**
     * How much the bound is shrunk: a replay ends a phase when what is left is within {@link #EPS} of the time, so
     * it may finish up to (phases × EPS × time / the least burst rate) early; with burst rates of at least 0.05 and
     * a few thousand phases that is below 1e-6 of the time, as are the rounding errors of its sums.
     */
    private static final double SAFE = 1 - 1e-6;

    /**
     * A lower bound of the total slowdown, summed in the order {@link CorunPredictor#total} sums: the finished
     * applications' slowdowns, and for the others their slowdown if they ran alone from {@code now} on.
     */
    private static double totalAtLeast(double[][] phases, int[] at, double[] left, double[] finish, double[] burst,
                                       double[] alone, double[][] rest, double now) {
        double sum = 0;
        for (int i = 0; i < phases.length; i++) {
            double d;
            if (alone[i] <= 0) {
                d = 1;
            } else if (at[i] >= phases[i].length) {
                d = Math.max(1, finish[i] / alone[i]);
            } else {
                double here = (at[i] & 1) == 0 ? left[i] : left[i] / burst[i];
                d = Math.max(1, (now + here + rest[i][at[i] + 1]) * SAFE / alone[i]);
            }
            sum += d;
        }
        return sum;
    }

    /**
     * Seconds alone each suffix of {@code phases} takes: {@code out[k]} for phases k onwards (computation at its
     * own pace, bytes at the burst rate); one entry longer than {@code phases}, the last 0.
     */
    static double[] aloneAfter(double[] phases, double burst) {
        double[] out = new double[phases.length + 1];
        for (int k = phases.length - 1; k >= 0; k--) {
            out[k] = out[k + 1] + ((k & 1) == 0 ? phases[k] : phases[k] / burst);
        }
        return out;
    }

    /**
     * Weighted max-min with caps: the sending applications split the link by weight, none above its burst rate,
     * and what a capped one leaves goes to the others by weight (water-filling). Sets the senders' rates and returns
     * the least time any of them has left of its phase. Called at every step of a replay, so it reads the senders
     * only and allocates nothing; each round sums and caps in index order, as its sums' rounding must not change.
     *
     * @param sending the applications sending, in index order
     * @param count   how many of {@code sending} are used
     * @param w       the sum of their weights, in index order
     * @param unfixed scratch space, as long as {@code sending}
     */
    private static double share(double[] weight, double[] cap, int[] sending, int count, double w, int[] unfixed,
                                double[] rate, double[] bytesLeft) {
        double least = Double.POSITIVE_INFINITY;
        if (count == 0) {
            return least;
        }
        int[] from = sending;
        int m = count;
        double left = 1;
        while (true) {
            boolean capped = false;
            int kept = 0;
            for (int k = 0; k < m; k++) {
                int i = from[k];
                if (atLeast(left * weight[i], w, cap[i])) {
                    rate[i] = cap[i];
                    least = Math.min(least, bytesLeft[i] / cap[i]);
                    left -= cap[i];
                    capped = true;
                } else {
                    unfixed[kept++] = i;
                }
            }
            if (!capped) {
                // the least of bytesLeft / rate, dividing only where a comparison by products is too close to call
                double num = Double.NaN;
                double den = Double.NaN;
                for (int k = 0; k < m; k++) {
                    int i = from[k];
                    double r = left * weight[i] / w;
                    rate[i] = r;
                    double b = bytesLeft[i];
                    if (k == 0 || lessThan(b, r, num, den)) {
                        num = b;
                        den = r;
                    }
                }
                return Math.min(least, num / den);
            }
            m = kept;
            from = unfixed;
            w = 0;
            for (int k = 0; k < m; k++) {
                w += weight[from[k]];
            }
            if (w == 0) {
                return least;
            }
        }
    }

    /** Relative margin beyond which a comparison of products decides what the rounded quotients would. */
    private static final double CLEAR = 1e-12;

    /**
     * {@code q / w >= c} as the rounded division decides it, with a multiplication where the answer is clear (a
     * division costs several multiplications): when q and c·w differ by more than {@link #CLEAR}, rounding cannot
     * carry the quotient across c; otherwise the division decides.
     */
    private static boolean atLeast(double q, double w, double c) {
        double p = c * w;
        if (q > p * (1 + CLEAR)) {
            return true;
        }
        if (q < p * (1 - CLEAR)) {
            return false;
        }
        return q / w >= c;
    }

    /**
     * Whether the rounded quotient a / r is below b / s (all positive, finite, r and s above 0), by products where
     * they differ clearly and by the divisions otherwise; equal quotients are not below each other.
     */
    private static boolean lessThan(double a, double r, double b, double s) {
        double x = a * s;
        double y = b * r;
        if (x < y * (1 - CLEAR)) {
            return true;
        }
        if (x > y * (1 + CLEAR)) {
            return false;
        }
        return a / r < b / s;
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
