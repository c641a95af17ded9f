package io.saba.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ModelFitterTest {
    private static final double[] LEVELS = {5, 10, 25, 50, 75, 90, 100};

    @Test
    void recoversAKnownCubicFromNoiselessSamples() {
        SensitivityModel truth = SensitivityModel.of(6, -15, 14, -4);
        List<Sample> samples = new ArrayList<>();
        for (double b : LEVELS) {
            samples.add(new Sample(b, truth.slowdown(b / 100)));
        }
        FittedModel fit = ModelFitter.fit(samples, 3);
        assertEquals(1.0, fit.r2(), 1e-12);
        double[] c = fit.model().coefficients();
        assertEquals(6, c[0], 1e-8);
        assertEquals(-15, c[1], 1e-7);
        assertEquals(14, c[2], 1e-7);
        assertEquals(-4, c[3], 1e-7);
    }

    @Test
    void higherDegreeFitsSqlLikeCurvesBetter() {
        // SQL: flat down to 25 %, then steep (paper Fig. 5): a line explains it poorly, a cubic well.
        List<Sample> sql = List.of(new Sample(5, 2.9), new Sample(10, 2.2), new Sample(25, 1.2), new Sample(50, 1.05),
                new Sample(75, 1.0), new Sample(90, 1.0), new Sample(100, 1.0));
        double r1 = ModelFitter.fit(sql, 1).r2();
        double r2 = ModelFitter.fit(sql, 2).r2();
        double r3 = ModelFitter.fit(sql, 3).r2();
        assertTrue(r1 < r2 && r2 < r3, r1 + " " + r2 + " " + r3);
        assertTrue(r1 < 0.8 && r3 > 0.95, r1 + " " + r3);
    }

    @Test
    void repeatedRunsAtALevelAreAveragedByLeastSquares() {
        Random rnd = new Random(7);
        List<Sample> samples = new ArrayList<>();
        for (double b : LEVELS) {
            for (int r = 0; r < 5; r++) {
                samples.add(new Sample(b, 3 - 2 * b / 100 + 0.01 * rnd.nextGaussian()));
            }
        }
        FittedModel fit = ModelFitter.fit(samples, 1);
        assertEquals(3, fit.model().coefficient(0), 0.02);
        assertEquals(-2, fit.model().coefficient(1), 0.03);
        assertTrue(fit.r2() > 0.99);
    }

    @Test
    void badSamplesAreRejectedByNumber() {
        List<Sample> ok = List.of(new Sample(10, 2), new Sample(50, 1.2), new Sample(100, 1));
        assertEquals("sample 2 (0.0 %, 1.5x) has bandwidth 0.0 % outside (0, 100]",
                message(List.of(new Sample(10, 2), new Sample(0, 1.5), new Sample(100, 1)), 1));
        assertTrue(message(List.of(new Sample(10, 2), new Sample(50, -1), new Sample(100, 1)), 1)
                .startsWith("sample 2 (50.0 %, -1.0x) has slowdown -1.0"));
        assertTrue(message(List.of(new Sample(10, Double.NaN), new Sample(100, 1)), 1)
                .startsWith("sample 1 (10.0 %, NaNx) is not a number"));
        assertTrue(message(List.of(new Sample(120, 1), new Sample(100, 1)), 1).contains("120.0 % outside"));
        assertEquals("a degree-3 model needs samples at 4 or more distinct bandwidth levels, got 3 [10.0, 50.0, 100.0]",
                message(ok, 3));
        assertThrows(IllegalArgumentException.class, () -> ModelFitter.fit(ok, 4));
        assertEquals(1.0, ModelFitter.fit(ok, 2).r2(), 1e-12, "exactly determined fits interpolate");
    }

    private static String message(List<Sample> samples, int degree) {
        return assertThrows(IllegalArgumentException.class, () -> ModelFitter.fit(samples, degree)).getMessage();
    }
}
