package io.saba.core.testing;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import java.util.List;

/**
 * Test-only Eq. 2 solver for any number of applications: starts everyone at a small floor and hands out the rest
 * in {@link #STEPS} equal steps, each to the application whose slowdown drops most (lowest index on ties).
 * Optimal up to the step size for convex models; deterministic.
 */
public final class GreedyStepSolver implements PortSolver {
    public static final int STEPS = 400;
    public static final double FLOOR = 0.05;

    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        int n = models.size();
        double floor = Math.min(FLOOR, capacity / n);
        double[] w = new double[n];
        java.util.Arrays.fill(w, floor);
        double step = (capacity - floor * n) / STEPS;
        for (int s = 0; s < STEPS && step > 0; s++) {
            int best = 0;
            double bestGain = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                SensitivityModel m = models.get(i);
                double gain = m.slowdown(w[i]) - m.slowdown(w[i] + step);
                if (gain > bestGain) {
                    bestGain = gain;
                    best = i;
                }
            }
            w[best] += step;
        }
        double objective = 0;
        for (int i = 0; i < n; i++) {
            objective += models.get(i).slowdown(w[i]);
        }
        return new PortSolution(w, objective);
    }
}
