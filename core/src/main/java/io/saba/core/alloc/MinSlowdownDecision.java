package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import io.saba.core.solve.PortSolver;
import java.util.List;
import java.util.Objects;

/**
 * Saba's per-port decision (paper Eq. 2): the weights that minimise the sum of the applications' predicted
 * slowdowns, found by a {@link PortSolver}. A lone application gets the whole capacity without asking the solver.
 */
public final class MinSlowdownDecision implements PortWeightDecision {
    private final PortSolver solver;

    public MinSlowdownDecision(PortSolver solver) {
        this.solver = Objects.requireNonNull(solver, "solver");
    }

    @Override
    public GroupSolution decide(PortId port, List<SensitivityModel> models, int[] counts, double capacity) {
        if (models.size() == 1 && counts[0] == 1) {
            return new GroupSolution(new double[][] {{capacity}}, new int[][] {{1}}, models.get(0).slowdown(capacity));
        }
        return solver.solveGroups(models, counts, capacity);
    }
}
