package io.saba.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void inverseFamilyRecoversComputePlusTransfer() {
        SensitivityModel truth = SensitivityModel.inverse(0.35, 0.65);
        List<Sample> samples = new ArrayList<>();
        for (double b : LEVELS) {
            samples.add(new Sample(b, truth.slowdown(b / 100)));
        }
        FittedModel fit = ModelFitter.fit(ModelFamily.INVERSE, 0, samples);
        assertEquals(0.35, fit.model().coefficient(0), 1e-10);
        assertEquals(0.65, fit.model().inverseCoefficient(), 1e-10);
        assertEquals(0, fit.cvRmse(), 1e-9, "noiseless samples are predicted exactly when held out");
        assertTrue(fit.monotone());
        assertEquals("inverse", fit.label());
        assertEquals(2, fit.parameters());
    }

    @Test
    void inverseFamilyKeepsBothTermsNonNegative() {
        // slowdown falling towards low shares (noise, or a mis-measured baseline) would need c < 0: c stays 0
        List<Sample> backwards = List.of(new Sample(10, 0.8), new Sample(50, 1.0), new Sample(100, 1.1));
        FittedModel fit = ModelFitter.fit(ModelFamily.INVERSE, 0, backwards);
        assertEquals(0, fit.model().inverseCoefficient(), 0);
        assertEquals((0.8 + 1.0 + 1.1) / 3, fit.model().coefficient(0), 1e-12);
    }

    /** The fig. 1b testbed's Sort runs (examples/fig1b-testbed/sort-runs.csv over their median at 100 %). */
    static List<Sample> fig1bSort() {
        double base = (8.075 + 7.681) / 2;
        double[][] runs = {{100, 8.075}, {75, 11.549}, {50, 14.219}, {25, 20.857}, {10, 50.010}, {100, 7.681},
                           {75, 8.579}, {50, 14.946}, {25, 31.483}, {10, 65.902}};
        List<Sample> out = new ArrayList<>();
        for (double[] r : runs) {
            out.add(new Sample(r[0], r[1] / base));
        }
        return out;
    }

    @Test
    void monotonePolynomialStaysNonIncreasingWhereTheOlsCubicRises() {
        List<Sample> sort = fig1bSort();
        FittedModel ols = ModelFitter.fit(sort, 3);
        FittedModel mono = ModelFitter.fit(ModelFamily.MONOTONE_POLY, 3, sort);
        assertFalse(ols.monotone(), "the paper's cubic of this profile rises: " + ols.model());
        assertTrue(mono.monotone(), mono.model().toString());
        for (double b = 0.1; b <= 1.0; b += 0.01) {
            assertTrue(mono.model().derivative(b) <= 1e-9, "D' > 0 at " + b + ": " + mono.model());
        }
        assertTrue(mono.r2() <= ols.r2() + 1e-12, "a constrained fit cannot beat OLS on its own points");
    }

    @Test
    void monotonePolynomialEqualsOlsWhenOlsIsAlreadyStrictlyMonotone() {
        List<Sample> samples = new ArrayList<>();
        for (double b : LEVELS) {
            samples.add(new Sample(b, 3 - 2 * b / 100 + 0.5 * (b / 100) * (b / 100)));
        }
        samples.add(new Sample(50, 2.2));
        double[] ols = ModelFitter.fit(samples, 2).model().coefficients();
        double[] mono = ModelFitter.fit(ModelFamily.MONOTONE_POLY, 2, samples).model().coefficients();
        for (int i = 0; i < ols.length; i++) {
            assertEquals(ols[i], mono[i], 1e-9, "c" + i);
        }
    }

    @Test
    void crossValidationChargesACubicForWhatItPredictsAtHeldOutLevels() {
        List<Sample> sort = fig1bSort();
        double cubic = ModelFitter.crossValidatedRmse(ModelFamily.POLY, 3, sort);
        double inverse = ModelFitter.crossValidatedRmse(ModelFamily.INVERSE, 0, sort);
        assertTrue(inverse < cubic, "held out, a + c/b predicts better: " + inverse + " vs " + cubic);
        assertTrue(Double.isNaN(ModelFitter.crossValidatedRmse(ModelFamily.POLY, 2,
                List.of(new Sample(10, 2), new Sample(50, 1.2), new Sample(100, 1)))), "no level to spare");
    }
}
