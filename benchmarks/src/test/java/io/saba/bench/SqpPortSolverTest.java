package io.saba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqpPortSolverTest {
    @Test
    void agreesWithTheExactSolverOnConvexModels() {
        List<SensitivityModel> models = List.of(SensitivityModel.of(5.6, -11.7, 7.1), SensitivityModel.of(1.7, -1.3, 0.6),
                SensitivityModel.of(3, -4, 2));
        PortSolution sqp = new SqpPortSolver(0.05).solve(models, 1.0);
        PortSolution exact = new MinSlowdownSolver(0.05).solve(models, 1.0);
        assertEquals(exact.objective(), sqp.objective(), 1e-4);
        double sum = 0;
        for (double w : sqp.weights()) {
            assertTrue(w >= 0.05 - 1e-9);
            sum += w;
        }
        assertEquals(1.0, sum, 1e-9);
    }

    @Test
    void isOnlyLocalOnConcaveModels() {
        // Equal shares are a stationary point of a sum of identical concave models: a local method can stay there,
        // the exact solver must not.
        List<SensitivityModel> models = List.of(SensitivityModel.of(1, 0, -1), SensitivityModel.of(1, 0, -1));
        PortSolution sqp = new SqpPortSolver(0.05).solve(models, 1.0);
        PortSolution exact = new MinSlowdownSolver(0.05).solve(models, 1.0);
        assertTrue(exact.objective() <= sqp.objective() + 1e-12, exact.objective() + " vs " + sqp.objective());
    }
}
