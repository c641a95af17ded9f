package io.saba.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The estimator on cases computed by hand from T(s) = c + n/s (see {@link SensitivityEstimate}). */
class SensitivityEstimateTest {
    private static final double EPS = 1e-12;

    @Test
    void oneStageAtHalfTheLink() {
        // T = 1000 ms, W = 500 ms at s = 0.5: c = 500, n = 250 at the full link, φ = 250 / 750 = 1/3
        SensitivityEstimate e = SensitivityEstimate.of(List.of(new Observation(1000, 500, 0.5, 4_000_000)));
        assertEquals(1.0 / 3, e.networkShare(), EPS);
        // at 25 %: 500 + 250 / 0.25 = 1500 ms against 750 ms at the full link
        assertEquals(2.0, e.slowdown(0.25), EPS);
        // at 50 %, the share it was seen at: 1000 ms against 750 ms
        assertEquals(4.0 / 3, e.slowdown(0.5), EPS);
        assertEquals(1.0, e.slowdown(1), EPS);
        // the form: r = w·s / (1 − w) = 0.5, D(b) = (1 + r/b) / (1 + r)
        double r = 0.5 * 0.5 / (1 - 0.5);
        assertEquals((1 + r / 0.25) / (1 + r), e.slowdown(0.25), EPS);
        assertEquals(e.slowdown(0.1), e.model().slowdown(0.1), EPS);
        assertEquals(2.0 / 3, e.model().coefficient(0), EPS);
        assertEquals(1.0 / 3, e.model().inverseCoefficient(), EPS);
        assertTrue(Double.isNaN(e.standardError()), "one unit has no spread");
        assertTrue(Double.isNaN(e.slowdownError(0.25)));
        assertEquals(1, e.observations());
        assertEquals(1, e.effectiveObservations(), EPS);
        assertEquals(4_000_000, e.bytes());
    }

    @Test
    void aUnitThatNeverWaitedIsInsensitive() {
        SensitivityEstimate e = SensitivityEstimate.of(List.of(new Observation(800, 0, 0.3, 0)));
        assertEquals(0, e.networkShare(), EPS);
        assertEquals(1, e.slowdown(0.05), EPS);
        assertEquals(SensitivityModel.flat(), e.model());
    }

    @Test
    void theSameWorkSeenAtTwoSharesGivesOneCurveWithoutSpread() {
        // c = 600, n = 400: at the full link T = 1000, W = 400; at half the link T = 600 + 800 = 1400, W = 800
        SensitivityEstimate e = SensitivityEstimate.of(List.of(new Observation(1000, 400, 1.0, 0),
                new Observation(1400, 800, 0.5, 0)));
        assertEquals(0.4, e.networkShare(), EPS);
        assertEquals(0, e.standardError(), EPS);
        assertEquals(2, e.effectiveObservations(), EPS);
    }

    @Test
    void unitsAreWeighedByTheirTimeAndTheirSpreadIsTheError() {
        // A: T = 1000, W = 500 at s = 0.5 → c = 500, n = 250, z = 750; B: T = 1000, W = 0 → c = 1000, n = 0
        SensitivityEstimate e = SensitivityEstimate.of(List.of(new Observation(1000, 500, 0.5, 0),
                new Observation(1000, 0, 1.0, 0)));
        assertEquals(1.0 / 7, e.networkShare(), EPS); // 250 / 1750
        // the job at 50 %: 1000 + 1000 = 2000 ms against 750 + 1000 = 1750 ms
        assertEquals(8.0 / 7, e.slowdown(0.5), EPS);
        // residuals n_k − Φ·z_k = ±1000/7; SE² = 2/1 · 2·(1000/7)² / 1750² → SE = 8/49
        assertEquals(8.0 / 49, e.standardError(), EPS);
        assertEquals(8.0 / 49, e.slowdownError(0.5), EPS); // (1/0.5 − 1)·SE
        assertEquals(3 * 8.0 / 49, e.slowdownError(0.25), EPS);
        assertEquals(1750.0 * 1750 / (750 * 750 + 1000 * 1000), e.effectiveObservations(), EPS);
    }

    @Test
    void thePriorCountsAsSoManyUnits() {
        SensitivityModel prior = SensitivityModel.of(2, -1); // D(0.5) = 1.5
        SensitivityEstimate e = SensitivityEstimate.of(List.of(new Observation(1000, 400, 1.0, 0),
                new Observation(1000, 400, 1.0, 0))); // Φ = 0.4: D(0.5) = 0.6 + 0.8 = 1.4, two equal units
        assertEquals(0.2, e.weightAgainst(8), EPS);
        assertEquals(0.8 * 1.5 + 0.2 * 1.4, e.blendedWith(prior, 8).slowdown(0.5), EPS);
        assertEquals(e.model(), e.blendedWith(prior, 0));
        assertThrows(IllegalArgumentException.class, () -> e.blendedWith(prior, -1));
    }

    @Test
    void anUnprofiledWorkloadConvergesFromTheDefaultToItsOwnCurve() {
        SensitivityModel defaultModel = SensitivityModel.flat();
        List<Observation> units = new ArrayList<>();
        double before = Double.POSITIVE_INFINITY;
        for (int i = 0; i < WorkloadEstimator.KEEP; i++) {
            units.add(new Observation(1000, 500, 1.0, 0)); // φ = 0.5: D(0.25) = 2.5
            double gap = Math.abs(SensitivityEstimate.of(units).blendedWith(defaultModel, 1).slowdown(0.25) - 2.5);
            assertTrue(gap < before, "every unit moves the blend towards the estimate");
            before = gap;
        }
        // 64 equal units against a prior worth one: (1·1 + 64·2.5) / 65
        assertEquals(161.0 / 65, SensitivityEstimate.of(units).blendedWith(defaultModel, 1).slowdown(0.25), EPS);
    }

    @Test
    void nothingToEstimateFrom() {
        assertNull(SensitivityEstimate.of(List.of()));
    }

    @Test
    void observationsOutsideTheirRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Observation(100, 101, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Observation(0, 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Observation(100, 10, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Observation(100, 10, 1.5, 0));
    }
}
