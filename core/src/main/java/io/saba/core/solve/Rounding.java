package io.saba.core.solve;

import java.util.ArrayList;
import java.util.List;

/**
 * A feasible point built from a relaxed one: an item whose value lies on a bridge of its envelope sends its
 * applications to the two ends of the bridge (where envelope and model agree) in the proportion that keeps the
 * item's total, leaving at most one application in between. That application is where the relaxation was
 * optimistic; it is the one to branch on. Values are kept as runs (value, how many applications), so the cost is
 * independent of the number of applications.
 */
final class Rounding {
    private final Items items;
    /** The relaxed point, when no item is on a bridge: then it is the point itself, item i's applications at x[i]. */
    private final double[] exact;
    /** Otherwise per item, up to three runs: values and counts. */
    private final double[][] runValues;
    private final int[][] runCounts;
    /** Σ D over all applications: the true objective of this point. */
    final double value;
    /** The item whose in-between application has the largest gap, or −1 if the point is exact. */
    final int branchItem;
    /** That application's value. */
    final double branchAt;

    private Rounding(Items items, double[] exact, double[][] runValues, int[][] runCounts, double value,
                     int branchItem, double branchAt) {
        this.items = items;
        this.exact = exact;
        this.runValues = runValues;
        this.runCounts = runCounts;
        this.value = value;
        this.branchItem = branchItem;
        this.branchAt = branchAt;
    }

    static Rounding of(Items items, Relaxation relaxed) {
        int size = items.size();
        double total = 0;
        for (int i = 0; i < size; i++) {
            ConvexEnvelope e = items.envelopes[i];
            double x = relaxed.x[i];
            if (e.onBridge(x)) {
                return withRuns(items, relaxed);
            }
            total += items.counts[i] * e.model.slowdown(x);
        }
        return new Rounding(items, relaxed.x, null, null, total, -1, Double.NaN);
    }

    /** Some item lies on a bridge: its applications go to the bridge's ends. */
    private static Rounding withRuns(Items items, Relaxation relaxed) {
        int size = items.size();
        double[][] values = new double[size][];
        int[][] counts = new int[size][];
        double total = 0;
        int branchItem = -1;
        double branchAt = Double.NaN;
        double worstGap = 0;
        for (int i = 0; i < size; i++) {
            ConvexEnvelope e = items.envelopes[i];
            int count = items.counts[i];
            double x = relaxed.x[i];
            if (!e.onBridge(x)) {
                values[i] = new double[] {x};
                counts[i] = new int[] {count};
                total += count * e.model.slowdown(x);
                continue;
            }
            double a = e.bridgeLo;
            double b = e.bridgeHi;
            double itemTotal = count * x;
            int atHigh = (int) Math.min(count, Math.floor((itemTotal - count * a) / (b - a)));
            if (atHigh == count) {
                values[i] = new double[] {b};
                counts[i] = new int[] {count};
            } else {
                double rest = itemTotal - atHigh * b - (count - atHigh - 1) * a;
                values[i] = new double[] {b, rest, a};
                counts[i] = new int[] {atHigh, 1, count - atHigh - 1};
                double gap = e.gap(rest);
                if (gap > worstGap && rest - e.lo > 1e-12 && e.hi - rest > 1e-12) {
                    worstGap = gap;
                    branchItem = i;
                    branchAt = rest;
                }
            }
            for (int r = 0; r < values[i].length; r++) {
                total += counts[i][r] * e.model.slowdown(values[i][r]);
            }
        }
        return new Rounding(items, null, values, counts, total, branchItem, branchAt);
    }

    /**
     * The point as runs per input group, groups in order (items split off one group are merged back).
     *
     * @param lambda the root relaxation's multiplier, kept with the solution for the port's next solve
     */
    GroupSolution perGroup(int groups, double lambda) {
        if (items.isRoot() && exact != null) { // the usual answer: items are the groups, one run each
            return GroupSolution.onePerGroup(exact, items.counts.clone(), value, lambda);
        }
        if (items.isRoot()) {
            return new GroupSolution(runValues, runCounts, value, lambda);
        }
        List<List<double[]>> runs = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            runs.add(new ArrayList<>(1));
        }
        for (int i = 0; i < items.size(); i++) {
            for (int r = 0; r < runsOf(i); r++) {
                if (runApps(i, r) > 0) {
                    runs.get(items.groupOf(i)).add(new double[] {runValue(i, r), runApps(i, r)});
                }
            }
        }
        double[][] values = new double[groups][];
        int[][] counts = new int[groups][];
        for (int g = 0; g < groups; g++) {
            List<double[]> list = runs.get(g);
            values[g] = new double[list.size()];
            counts[g] = new int[list.size()];
            for (int r = 0; r < list.size(); r++) {
                values[g][r] = list.get(r)[0];
                counts[g][r] = (int) list.get(r)[1];
            }
        }
        return new GroupSolution(values, counts, value, lambda);
    }

    private int runsOf(int item) {
        return exact != null ? 1 : runValues[item].length;
    }

    private double runValue(int item, int r) {
        return exact != null ? exact[item] : runValues[item][r];
    }

    private int runApps(int item, int r) {
        return exact != null ? items.counts[item] : runCounts[item][r];
    }
}
