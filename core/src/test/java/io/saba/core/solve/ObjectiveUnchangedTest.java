package io.saba.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The solver's answers did not move when it was made faster (issue 19: envelopes kept between ports, λ started
 * from the port's previous solution). {@code objectives-before-19.txt} holds 800 random ports, convex and
 * non-convex cubics, lower degrees and a + c/b curves, 1 to 10 groups of 1 to 300 applications, and the objective
 * the solver gave each before that work (commit 1ce09e5); every port must still get it, cold and warm-started
 * from a multiplier of another port.
 */
class ObjectiveUnchangedTest {
    /** The relaxation stops at |Σw − C| ≤ 1e-14·C; the objective may move by rounding, never by more. */
    private static final double RELATIVE = 1e-12;

    private record Port(double capacity, int[] counts, List<SensitivityModel> models, double objective) {
    }

    @Test
    void everyPortKeepsItsObjectiveColdAndWarmStarted() throws IOException {
        List<Port> ports = ports();
        assertEquals(800, ports.size());
        MinSlowdownSolver solver = new MinSlowdownSolver();
        double worst = 0;
        double previousLambda = Double.NaN;
        for (int i = 0; i < ports.size(); i++) {
            Port p = ports.get(i);
            GroupSolution cold = solver.solveGroups(p.models(), p.counts(), p.capacity());
            GroupSolution warm = solver.solveGroups(p.models(), p.counts(), p.capacity(), previousLambda);
            for (GroupSolution s : List.of(cold, warm)) {
                double error = Math.abs(s.objective() - p.objective()) / Math.max(1, Math.abs(p.objective()));
                assertTrue(error <= RELATIVE, "port " + i + ": objective " + s.objective() + ", before "
                        + p.objective() + " (relative error " + error + ")");
                worst = Math.max(worst, error);
            }
            previousLambda = cold.lambda();
        }
        System.out.printf("largest relative change of the objective over %d ports: %.3g%n", ports.size(), worst);
    }

    private static List<Port> ports() throws IOException {
        List<Port> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                ObjectiveUnchangedTest.class.getResourceAsStream("objectives-before-19.txt")), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(";");
                int[] counts = Arrays.stream(f[1].split(" ")).mapToInt(Integer::parseInt).toArray();
                List<SensitivityModel> models = new ArrayList<>();
                for (String m : f[2].split("\\|")) {
                    models.add(SensitivityModel.of(Arrays.stream(m.split(" ")).mapToDouble(Double::parseDouble).toArray()));
                }
                out.add(new Port(Double.parseDouble(f[0]), counts, models, Double.parseDouble(f[3])));
            }
        }
        return out;
    }
}
