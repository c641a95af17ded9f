package io.saba.core.testing;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import java.util.List;

/**
 * Test-only Eq. 2 solver for up to three applications: tries every split of the capacity on a grid of
 * {@link #STEP} with each weight at least {@link #FLOOR}, keeps the smallest total slowdown (first one on ties).
 */
public final class GridSolver implements PortSolver {
    public static final double STEP = 0.005;
    public static final double FLOOR = 0.05;

    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        int n = models.size();
        if (n < 1 || n > 3) {
            throw new IllegalArgumentException("grid solver handles 1 to 3 applications, got " + n);
        }
        if (n == 1) {
            return new PortSolution(new double[] {capacity}, models.get(0).slowdown(capacity));
        }
        int units = (int) Math.round(capacity / STEP);
        int floor = (int) Math.round(FLOOR / STEP);
        double best = Double.POSITIVE_INFINITY;
        double[] bestW = null;
        if (n == 2) {
            for (int a = floor; a <= units - floor; a++) {
                double wa = a * STEP;
                double wb = capacity - wa;
                double f = models.get(0).slowdown(wa) + models.get(1).slowdown(wb);
                if (f < best) {
                    best = f;
                    bestW = new double[] {wa, wb};
                }
            }
        } else {
            for (int a = floor; a <= units - 2 * floor; a++) {
                for (int b = floor; b <= units - a - floor; b++) {
                    double wa = a * STEP;
                    double wb = b * STEP;
                    double wc = capacity - wa - wb;
                    double f = models.get(0).slowdown(wa) + models.get(1).slowdown(wb) + models.get(2).slowdown(wc);
                    if (f < best) {
                        best = f;
                        bestW = new double[] {wa, wb, wc};
                    }
                }
            }
        }
        return new PortSolution(bestW, best);
    }
}
