package io.saba.harness.sim.sharing;

import java.util.Arrays;

/**
 * Weighted water-filling on one resource: share {@code capacity} among claimants in proportion to their weights,
 * never giving one more than it demands, and handing what a satisfied claimant leaves to the others (work
 * conservation). This is the fluid limit of weighted round robin with backlogged and idle queues.
 */
public final class WaterFill {
    private WaterFill() {
    }

    /**
     * @param capacity what there is to share, ≥ 0
     * @param weights  positive weights
     * @param demands  the most each claimant can use, ≥ 0 (may be infinite)
     * @return x_i = min(d_i, w_i·λ) with Σ x_i = min(capacity, Σ d_i)
     */
    public static double[] fill(double capacity, double[] weights, double[] demands) {
        int n = weights.length;
        double[] out = new double[n];
        if (n == 0 || capacity <= 0) {
            return out;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        // Claimants whose demand runs out at the lowest water level are settled first.
        Arrays.sort(order, (a, b) -> Double.compare(demands[a] / weights[a], demands[b] / weights[b]));
        double left = capacity;
        double weightLeft = 0;
        for (double w : weights) {
            weightLeft += w;
        }
        for (int k = 0; k < n; k++) {
            int i = order[k];
            double level = left / weightLeft;
            double fair = weights[i] * level;
            double x = Math.min(demands[i], fair);
            out[i] = x;
            left = Math.max(0, left - x);
            weightLeft -= weights[i];
            if (weightLeft <= 0) {
                break;
            }
        }
        return out;
    }
}
