package io.saba.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.ModelFamily;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Eq2SolverTest {
    private final Eq2Solver solver = new Eq2Solver(0.05);

    @Test
    void convexQuadraticsMeetWhereMarginalSlowdownsAreEqual() {
        // 2(w1 − 0.7)² + (w2 − 0.2)², w1 + w2 = 1  ⇒  4(w1 − 0.7) = 2(0.8 − w1)  ⇒  w1 = 4.4 / 6
        SensitivityModel d1 = SensitivityModel.of(2 * 0.49, -2.8, 2);
        SensitivityModel d2 = SensitivityModel.of(0.04, -0.4, 1);
        PortSolution s = solver.solve(List.of(d1, d2), 1.0);
        assertEquals(4.4 / 6, s.weights()[0], 1e-9);
        assertEquals(1 - 4.4 / 6, s.weights()[1], 1e-9);
    }

    @Test
    void concaveModelsGoToTheExtremesNotTheStationaryPoint() {
        // D(w) = 1 − w² is concave: equal shares are a local maximum of the sum; the optimum starves all but one.
        SensitivityModel concave = SensitivityModel.of(1, 0, -1);
        PortSolution s = solver.solve(List.of(concave, concave, concave, concave), 1.0);
        List<Double> w = new ArrayList<>();
        for (double x : s.weights()) {
            w.add(x);
        }
        Collections.sort(w);
        assertEquals(0.05, w.get(0), 1e-9);
        assertEquals(0.05, w.get(2), 1e-9);
        assertEquals(0.85, w.get(3), 1e-9);
        assertEquals(4 - 3 * 0.0025 - 0.7225, s.objective(), 1e-9);
    }

    @Test
    void sensitiveWorkloadGetsTheLargerShare() {
        // LR loses 4.5x at 10 %, PageRank far less: LR must get more of the port (paper §2).
        SensitivityModel lr = SensitivityModel.of(5.6, -11.7, 7.1); // ≈ 4.5 @ 10 %, 3.4 @ 25 %, 1.3 @ 75 %
        SensitivityModel pr = SensitivityModel.of(1.7, -1.3, 0.6);
        PortSolution s = solver.solve(List.of(lr, pr), 1.0);
        assertTrue(s.weights()[0] > s.weights()[1], "LR share " + s.weights()[0]);
    }

    @Test
    void floorIsRespected() {
        SensitivityModel steep = SensitivityModel.of(10, -20, 10);
        SensitivityModel flat = SensitivityModel.flat();
        PortSolution s = solver.solve(List.of(steep, flat, flat), 1.0);
        assertEquals(0.05, s.weights()[1], 1e-9);
        assertEquals(0.05, s.weights()[2], 1e-9);
        assertEquals(0.9, s.weights()[0], 1e-9);
    }

    @Test
    void busyPortsLowerTheFloorToHalfTheEqualShare() {
        // 40 applications cannot all get 5 %: the floor becomes 1 / (2 · 40) and the sensitive ones still gain.
        SensitivityModel steep = SensitivityModel.of(10, -20, 10);
        List<SensitivityModel> models = new ArrayList<>(Collections.nCopies(20, steep));
        models.addAll(Collections.nCopies(20, SensitivityModel.flat()));
        PortSolution s = solver.solve(models, 1.0);
        assertEquals(1.0 / 80, solver.floorFor(40, 1.0), 1e-15);
        for (int i = 0; i < 40; i++) {
            assertEquals(i < 20 ? (1 - 20.0 / 80) / 20 : 1.0 / 80, s.weights()[i], 1e-9, "application " + i);
        }
    }

    @Test
    void identicalConvexModelsShareEqually() {
        SensitivityModel m = SensitivityModel.of(4, -6, 3);
        PortSolution s = solver.solve(Collections.nCopies(7, m), 0.7);
        for (double w : s.weights()) {
            assertEquals(0.1, w, 1e-9);
        }
    }

    @Test
    void matchesExhaustiveSearchOnRandomNonConvexInstances() {
        Random rnd = new Random(20231);
        int units = 1000;
        for (int trial = 0; trial < 300; trial++) {
            int n = 2 + rnd.nextInt(4);
            List<SensitivityModel> models = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                models.add(randomCubic(rnd, trial % 3 == 0));
            }
            if (rnd.nextInt(4) == 0) {
                models.add(models.get(0)); // repeated workloads exercise the grouping
            }
            double capacity = trial % 5 == 0 ? 0.8 : 1.0;
            PortSolution s = solver.solve(models, capacity);
            assertFeasible(s, models, capacity, 0.05);
            double reference = GridReference.objective(models, capacity, 0.05, units);
            String ctx = "trial " + trial + " " + models;
            assertTrue(s.objective() <= reference + 1e-9, ctx + ": ours " + s.objective() + " > grid " + reference);
            // Rounding any feasible point to the grid moves each weight by < one step, so the grid optimum is
            // within step · Σ max|D'| of the true one: ours may beat the grid by no more than that.
            double gridError = capacity / units * models.stream().mapToDouble(Eq2SolverTest::maxSlope).sum();
            assertTrue(s.objective() >= reference - gridError, ctx + ": ours " + s.objective() + " ≪ grid " + reference);
        }
    }

    /**
     * The same exhaustive check on ports mixing every family Saba fits: the paper's cubics (arbitrary and
     * realistic), monotone polynomials as the fitter makes them from noisy samples, a + c/b, and the means of a
     * cubic and an a + c/b model that K-means centroids and default models produce (up to two inflections).
     */
    @Test
    void matchesExhaustiveSearchOnRandomMixesOfEveryFamily() {
        Random rnd = new Random(20261124);
        int units = 1000;
        int[] drawn = new int[4];
        for (int trial = 0; trial < 300; trial++) {
            int n = 2 + rnd.nextInt(4);
            List<SensitivityModel> models = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int kind = rnd.nextInt(4);
                drawn[kind]++;
                models.add(switch (kind) {
                    case 0 -> randomCubic(rnd, rnd.nextBoolean());
                    case 1 -> randomMonotone(rnd);
                    case 2 -> randomInverse(rnd);
                    default -> SensitivityModel.mean(List.of(randomCubic(rnd, false), randomInverse(rnd)),
                            new double[] {rnd.nextDouble() + 0.1, rnd.nextDouble() + 0.1});
                });
            }
            if (rnd.nextInt(4) == 0) {
                models.add(models.get(0));
            }
            double capacity = trial % 5 == 0 ? 0.8 : 1.0;
            PortSolution s = solver.solve(models, capacity);
            assertFeasible(s, models, capacity, 0.05);
            double reference = GridReference.objective(models, capacity, 0.05, units);
            String ctx = "trial " + trial + " " + models;
            assertTrue(s.objective() <= reference + 1e-9, ctx + ": ours " + s.objective() + " > grid " + reference);
            double gridError = capacity / units * models.stream().mapToDouble(m -> maxSlope(m, 0.05, capacity)).sum();
            assertTrue(s.objective() >= reference - gridError, ctx + ": ours " + s.objective() + " ≪ grid " + reference);
        }
        for (int kind = 0; kind < drawn.length; kind++) {
            assertTrue(drawn[kind] > 100, "family " + kind + " drawn " + drawn[kind] + " times");
        }
    }

    @Test
    void aFloorOfZeroIsRefusedForModelsUnboundedAtZero() {
        Eq2Solver noFloor = new Eq2Solver(0);
        assertEquals(1.0, noFloor.solve(List.of(SensitivityModel.of(1, 0, -1), SensitivityModel.flat()), 1.0)
                .weights()[0], 1e-9, "polynomials may still go to zero");
        assertThrows(IllegalArgumentException.class,
                () -> noFloor.solve(List.of(SensitivityModel.inverse(0.5, 0.5), SensitivityModel.flat()), 1.0));
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new Eq2Solver(1.0));
        assertThrows(IllegalArgumentException.class, () -> solver.solve(List.of(SensitivityModel.flat()), 1.5));
        assertEquals(0, solver.solve(List.of(), 1.0).weights().length);
        assertEquals(1.0, solver.solve(List.of(SensitivityModel.of(3, -2)), 1.0).weights()[0], 1e-12);
    }

    static void assertFeasible(PortSolution s, List<SensitivityModel> models, double capacity, double floor) {
        double sum = 0;
        double objective = 0;
        for (int i = 0; i < s.weights().length; i++) {
            double w = s.weights()[i];
            assertTrue(w >= floor - 1e-9, "weight " + w + " below floor");
            sum += w;
            objective += models.get(i).slowdown(w);
        }
        assertEquals(capacity, sum, 1e-9);
        assertEquals(objective, s.objective(), 1e-9);
    }

    private static double maxSlope(SensitivityModel m) {
        return maxSlope(m, 0, 1);
    }

    private static double maxSlope(SensitivityModel m, double lo, double hi) {
        double max = 0;
        for (int i = 0; i <= 1000; i++) {
            max = Math.max(max, Math.abs(m.derivative(lo + (hi - lo) * i / 1000.0)));
        }
        return max;
    }

    /** a + c/b with a compute part and a transfer part of the run at the full link. */
    static SensitivityModel randomInverse(Random rnd) {
        double c = 0.8 * rnd.nextDouble();
        return SensitivityModel.inverse(1 - c + 0.2 * (rnd.nextDouble() - 0.5), c);
    }

    /** What the fitter makes of noisy samples of a realistic cubic or an a + c/b curve, at a random degree. */
    static SensitivityModel randomMonotone(Random rnd) {
        SensitivityModel truth = rnd.nextBoolean() ? randomCubic(rnd, true) : randomInverse(rnd);
        List<Sample> samples = new ArrayList<>();
        for (double level : new double[] {5, 10, 25, 50, 75, 90, 100}) {
            for (int r = 0; r < 2; r++) {
                samples.add(new Sample(level, Math.max(0.1, truth.slowdown(level / 100) * (1 + 0.15 * rnd.nextGaussian()))));
            }
        }
        return ModelFitter.fit(ModelFamily.MONOTONE_POLY, 1 + rnd.nextInt(3), samples).model();
    }

    /** A cubic over [0, 1]; "realistic" ones are decreasing and mostly convex, the others arbitrary. */
    static SensitivityModel randomCubic(Random rnd, boolean realistic) {
        if (realistic) {
            double depth = 1 + 5 * rnd.nextDouble();
            double c1 = -depth * (1 + rnd.nextDouble());
            double c2 = depth * rnd.nextDouble() * 1.5;
            double c3 = (rnd.nextDouble() - 0.5) * depth;
            return SensitivityModel.of(1 + depth, c1, c2, c3);
        }
        return SensitivityModel.of(1 + 4 * rnd.nextDouble(), 20 * (rnd.nextDouble() - 0.7),
                40 * (rnd.nextDouble() - 0.5), 40 * (rnd.nextDouble() - 0.5));
    }
}
