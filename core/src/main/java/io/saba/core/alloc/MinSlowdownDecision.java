package io.saba.core.alloc;

import io.saba.core.solve.GroupSolution;
import io.saba.core.solve.PortSolver;
import java.util.Objects;

/**
 * Saba's per-port decision (paper Eq. 2): the weights that minimise the sum of the applications' predicted
 * slowdowns, found by a {@link PortSolver} on the port's model groups, started from the port's previous multiplier
 * when the demand carries one. A lone application gets the whole capacity without asking the solver.
 */
public final class MinSlowdownDecision implements PortWeightDecision {
    private final PortSolver solver;

    public MinSlowdownDecision(PortSolver solver) {
        this.solver = Objects.requireNonNull(solver, "solver");
    }

    @Override
    public GroupSolution decide(PortDemand d, double capacity) {
        if (d.models().size() == 1 && d.counts()[0] == 1) {
            return new GroupSolution(new double[][] {{capacity}}, new int[][] {{1}},
                    d.models().get(0).slowdown(capacity));
        }
        return solver.solveGroups(d.models(), d.counts(), capacity, d.lambdaHint());
    }
}
