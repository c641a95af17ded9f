package io.saba.core.solve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A feasible point built from a relaxed one: an item whose value lies on a bridge of its envelope sends its
 * applications to the two ends of the bridge (where envelope and model agree) in the proportion that keeps the
 * item's total, leaving at most one application in between. That application is where the relaxation was
 * optimistic; it is the one to branch on.
 */
final class Rounding {
    /** Per item, the values of its applications. */
    final double[][] values;
    /** Per item, its input group. */
    private final int[] itemGroup;
    /** Σ D over all applications: the true objective of this point. */
    final double value;
    /** The item whose in-between application has the largest gap, or −1 if the point is exact. */
    final int branchItem;
    /** That application's value. */
    final double branchAt;

    private Rounding(double[][] values, int[] itemGroup, double value, int branchItem, double branchAt) {
        this.values = values;
        this.itemGroup = itemGroup;
        this.value = value;
        this.branchItem = branchItem;
        this.branchAt = branchAt;
    }

    static Rounding of(List<Item> items, Relaxation relaxed) {
        double[][] values = new double[items.size()][];
        int[] itemGroup = new int[items.size()];
        double total = 0;
        int branchItem = -1;
        double branchAt = Double.NaN;
        double worstGap = 0;
        for (int i = 0; i < values.length; i++) {
            Item it = items.get(i);
            itemGroup[i] = it.group;
            double x = relaxed.x[i];
            double[] v = new double[it.count];
            ConvexEnvelope e = it.envelope;
            if (!e.onBridge(x)) {
                Arrays.fill(v, x);
            } else {
                double a = e.bridgeLo;
                double b = e.bridgeHi;
                double itemTotal = it.count * x;
                int atHigh = (int) Math.min(it.count, Math.floor((itemTotal - it.count * a) / (b - a)));
                int k = 0;
                for (; k < atHigh; k++) {
                    v[k] = b;
                }
                if (k < it.count) {
                    double rest = itemTotal - atHigh * b - (it.count - atHigh - 1) * a;
                    v[k++] = rest;
                    double gap = e.gap(rest);
                    if (gap > worstGap && rest - it.lo > 1e-12 && it.hi - rest > 1e-12) {
                        worstGap = gap;
                        branchItem = i;
                        branchAt = rest;
                    }
                }
                for (; k < it.count; k++) {
                    v[k] = a;
                }
            }
            for (double w : v) {
                total += it.model.slowdown(w);
            }
            values[i] = v;
        }
        return new Rounding(values, itemGroup, total, branchItem, branchAt);
    }

    /**
     * The values regrouped by the items' input group, groups in order, so that group g's applications occupy a
     * contiguous run.
     */
    double[] perApplication(int groups) {
        List<List<Double>> byGroup = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            byGroup.add(new ArrayList<>());
        }
        for (int i = 0; i < values.length; i++) {
            for (double w : values[i]) {
                byGroup.get(itemGroup[i]).add(w);
            }
        }
        List<Double> flat = new ArrayList<>();
        byGroup.forEach(flat::addAll);
        double[] out = new double[flat.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = flat.get(i);
        }
        return out;
    }

}
