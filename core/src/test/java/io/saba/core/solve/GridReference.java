package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;
import java.util.Arrays;
import java.util.List;

/**
 * Exhaustive reference for Eq. 2: dynamic programming over a grid of {@code units} steps of the capacity. Exact on
 * the grid, so the true optimum is at most its value; O(n · units²), for small instances only.
 */
final class GridReference {
    private GridReference() {
    }

    /** @return the best objective on the grid, with every weight a multiple of capacity / units and ≥ floor */
    static double objective(List<SensitivityModel> models, double capacity, double floor, int units) {
        double step = capacity / units;
        int floorUnits = (int) Math.ceil(floor / step - 1e-9);
        int n = models.size();
        double[] best = new double[units + 1];
        Arrays.fill(best, Double.POSITIVE_INFINITY);
        best[0] = 0;
        for (int i = 0; i < n; i++) {
            double[] next = new double[units + 1];
            Arrays.fill(next, Double.POSITIVE_INFINITY);
            SensitivityModel m = models.get(i);
            double[] cost = new double[units + 1];
            for (int u = floorUnits; u <= units; u++) {
                cost[u] = m.slowdown(u * step);
            }
            for (int used = 0; used <= units; used++) {
                if (best[used] == Double.POSITIVE_INFINITY) {
                    continue;
                }
                for (int u = floorUnits; used + u <= units; u++) {
                    double v = best[used] + cost[u];
                    if (v < next[used + u]) {
                        next[used + u] = v;
                    }
                }
            }
            best = next;
        }
        return best[units];
    }
}
