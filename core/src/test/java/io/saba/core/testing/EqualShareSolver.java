package io.saba.core.testing;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import java.util.Arrays;
import java.util.List;

/** Test-only solver that splits the capacity equally, for tests that check structure rather than weights. */
public final class EqualShareSolver implements PortSolver {
    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        double[] w = new double[models.size()];
        Arrays.fill(w, capacity / models.size());
        double objective = 0;
        for (int i = 0; i < w.length; i++) {
            objective += models.get(i).slowdown(w[i]);
        }
        return new PortSolution(w, objective);
    }
}
