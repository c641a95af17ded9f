package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Solves the paper's Eq. 2 for one switch output port: weights w_i ≥ floor with Σ w_i = capacity that minimise
 * Σ D_i(w_i). Shares are fractions of the link (capacity = C_Saba, e.g. 1.0 for 100 %).
 */
public interface PortSolver {
    /**
     * @param models   one model per application crossing the port (the same model may appear many times)
     * @param capacity C_Saba as a fraction of the link, 0 &lt; capacity ≤ 1
     * @return the weights, in the order of {@code models}, summing to {@code capacity}
     */
    PortSolution solve(List<SensitivityModel> models, double capacity);

    /**
     * The same problem stated by distinct model and how many applications run it: what a port's state holds when
     * hundreds of applications run a handful of workloads. The default expands the groups and calls
     * {@link #solve}; solvers that exploit the grouping override it.
     *
     * @param models distinct models
     * @param counts applications per model (≥ 1 each)
     * @return each group's weights (see {@link GroupSolution})
     */
    default GroupSolution solveGroups(List<SensitivityModel> models, int[] counts, double capacity) {
        List<SensitivityModel> expanded = new ArrayList<>();
        for (int g = 0; g < models.size(); g++) {
            for (int k = 0; k < counts[g]; k++) {
                expanded.add(models.get(g));
            }
        }
        PortSolution s = solve(expanded, capacity);
        double[][] values = new double[models.size()][];
        int[][] ones = new int[models.size()][];
        int at = 0;
        for (int g = 0; g < values.length; g++) {
            values[g] = Arrays.copyOfRange(s.weights(), at, at + counts[g]);
            ones[g] = new int[counts[g]];
            Arrays.fill(ones[g], 1);
            at += counts[g];
        }
        return new GroupSolution(values, ones, s.objective());
    }

    /**
     * {@link #solveGroups(List, int[], double)} started from a previous solution of the same port: {@code
     * lambdaHint} is that solution's {@link GroupSolution#lambda()} (NaN: none). The answer is the same optimum
     * whatever the hint (within the solver's tolerance); only the work to reach it changes. The default ignores
     * the hint.
     */
    default GroupSolution solveGroups(List<SensitivityModel> models, int[] counts, double capacity, double lambdaHint) {
        return solveGroups(models, counts, capacity);
    }
}
