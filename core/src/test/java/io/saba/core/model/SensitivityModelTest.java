package io.saba.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SensitivityModelTest {
    @Test
    void inverseModelIsComputePlusTransfer() {
        SensitivityModel m = SensitivityModel.inverse(0.3, 0.7);
        assertEquals(1.0, m.slowdown(1.0), 1e-15);
        assertEquals(0.3 + 0.7 / 0.1, m.slowdown(0.1), 1e-12);
        assertEquals(-0.7 / 0.04, m.derivative(0.2), 1e-12);
        assertEquals(2 * 0.7 / 0.008, m.secondDerivative(0.2), 1e-9);
        assertFalse(m.isPolynomial());
        assertEquals("D(b) = 0.300000 + 0.700000/b", m.toString());
        assertThrows(IllegalStateException.class, m::degree, "a 1/b model has no degree to rebuild it from");
        assertThrows(IllegalArgumentException.class, () -> SensitivityModel.inverse(1, -0.1));
        assertTrue(SensitivityModel.inverse(1, 0).isPolynomial(), "c = 0 is the flat polynomial");
    }

    @Test
    void coefficientsRebuildAnEqualModelForEveryForm() {
        for (SensitivityModel m : List.of(SensitivityModel.of(2, -1), SensitivityModel.of(6, -15, 14, -4),
                SensitivityModel.inverse(0.3, 0.7), SensitivityModel.of(1, -2, 3, 0.5, 0.25))) {
            SensitivityModel back = SensitivityModel.of(m.coefficients());
            assertEquals(m, back, m.toString());
            assertEquals(m.hashCode(), back.hashCode());
        }
        assertArrayEquals(new double[] {0.3, 0, 0, 0, 0.7}, SensitivityModel.inverse(0.3, 0.7).coefficients());
        assertEquals(SensitivityModel.of(1, 0, 2, 0), SensitivityModel.of(1, 0, 2, 0, 0), "r = 0 is a cubic");
    }

    @Test
    void meanPredictsTheMeanSlowdownAtEveryShare() {
        SensitivityModel cubic = SensitivityModel.of(6, -15, 14, -4);
        SensitivityModel inverse = SensitivityModel.inverse(0.4, 0.6);
        SensitivityModel line = SensitivityModel.of(3, -2);
        SensitivityModel mean = SensitivityModel.mean(List.of(cubic, inverse, line), new double[] {1, 2, 3});
        for (double b = 0.05; b <= 1; b += 0.05) {
            double expected = (cubic.slowdown(b) + 2 * inverse.slowdown(b) + 3 * line.slowdown(b)) / 6;
            assertEquals(expected, mean.slowdown(b), 1e-12, "at " + b);
        }
        assertEquals(SensitivityModel.of(4.5, -8.5, 7, -2), SensitivityModel.mean(List.of(cubic, line)));
    }

    @Test
    void monotonicityIsCheckedOnTheInterval() {
        SensitivityModel risesLate = SensitivityModel.of(10.9, -42.9, 63.2, -30.2); // the fig1b Sort cubic, rounded
        assertFalse(risesLate.isNonIncreasingOn(0.1, 1.0));
        assertTrue(risesLate.isNonIncreasingOn(0.1, 0.5));
        assertTrue(SensitivityModel.inverse(0.2, 0.8).isNonIncreasingOn(0.05, 1));
        SensitivityModel humped = SensitivityModel.of(1, -0.5, 2, -2, 0.001); // D' < 0 at both ends, > 0 near 1/3
        assertTrue(humped.derivative(0.05) < 0 && humped.derivative(1) < 0 && humped.derivative(0.33) > 0);
        assertFalse(humped.isNonIncreasingOn(0.05, 1));
    }

    /**
     * The bridge of any model of the space is its convex envelope: the envelope built from it lies below the model,
     * equals it off the bridge, is convex, and the bridge is tangent to the model wherever it ends inside the
     * interval. Random models mix cubics (one inflection) with 1/b terms (up to two).
     */
    @Test
    void bridgeGivesTheConvexEnvelopeOfRandomModels() {
        Random rnd = new Random(5);
        int twoInflections = 0;
        for (int trial = 0; trial < 2000; trial++) {
            SensitivityModel m = SensitivityModel.of(1 + 4 * rnd.nextDouble(), 20 * (rnd.nextDouble() - 0.7),
                    40 * (rnd.nextDouble() - 0.5), 40 * (rnd.nextDouble() - 0.5),
                    rnd.nextBoolean() ? 0 : 0.02 * rnd.nextDouble());
            double lo = 0.02 + 0.3 * rnd.nextDouble();
            double hi = lo + (1 - lo) * (0.1 + 0.9 * rnd.nextDouble());
            double[] concave = m.isPolynomial() ? null : EnvelopeBridge.concaveStretch(m);
            if (concave != null && Double.isFinite(concave[1])) {
                twoInflections++;
            }
            assertEnvelope(m, lo, hi, m.convexEnvelopeBridge(lo, hi), "trial " + trial + " " + m + " on [" + lo
                    + ", " + hi + "]");
        }
        assertTrue(twoInflections > 50, "convex-concave-convex models exercised: " + twoInflections);
    }

    @Test
    void convexModelsHaveNoBridge() {
        assertNull(SensitivityModel.inverse(0.5, 0.5).convexEnvelopeBridge(0.05, 1));
        assertNull(SensitivityModel.of(4, -6, 3).convexEnvelopeBridge(0.05, 1));
        assertThrows(IllegalArgumentException.class, () -> SensitivityModel.of(1, 0, -5, 0, 0.1).convexEnvelopeBridge(0, 1));
    }

    private static void assertEnvelope(SensitivityModel m, double lo, double hi, double[] bridge, String ctx) {
        int n = 400;
        double[] e = new double[n + 1];
        double scale = 0;
        for (int i = 0; i <= n; i++) {
            scale = Math.max(scale, Math.abs(m.slowdown(lo + (hi - lo) * i / n)));
        }
        double tol = 1e-9 * Math.max(1, scale);
        double slope = bridge == null ? Double.NaN
                : (m.slowdown(bridge[1]) - m.slowdown(bridge[0])) / (bridge[1] - bridge[0]);
        for (int i = 0; i <= n; i++) {
            double x = lo + (hi - lo) * i / n;
            boolean on = bridge != null && x > bridge[0] && x < bridge[1];
            e[i] = on ? m.slowdown(bridge[0]) + slope * (x - bridge[0]) : m.slowdown(x);
            assertTrue(e[i] <= m.slowdown(x) + tol, ctx + ": envelope above the model at " + x);
        }
        double h = (hi - lo) / n;
        for (int i = 1; i < n; i++) {
            assertTrue(e[i - 1] - 2 * e[i] + e[i + 1] >= -tol,
                    ctx + ": envelope not convex at " + (lo + h * i));
        }
        if (bridge != null) {
            if (bridge[0] > lo + 1e-12) {
                assertEquals(slope, m.derivative(bridge[0]), 1e-6 * Math.max(1, Math.abs(slope)), ctx + ": not tangent at "
                        + bridge[0]);
            }
            if (bridge[1] < hi - 1e-12) {
                assertEquals(slope, m.derivative(bridge[1]), 1e-6 * Math.max(1, Math.abs(slope)), ctx + ": not tangent at "
                        + bridge[1]);
            }
        }
    }
}
