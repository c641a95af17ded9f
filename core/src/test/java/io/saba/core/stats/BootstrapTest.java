package io.saba.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BootstrapTest {
    @Test
    void equalValuesHaveNoSpread() {
        Bootstrap.Interval i = Bootstrap.geomean95(Collections.nCopies(20, 1.5), 1);
        assertEquals(1.5, i.estimate(), 1e-12);
        assertEquals(1.5, i.low(), 1e-12);
        assertEquals(1.5, i.high(), 1e-12);
    }

    /**
     * Log-normal values with σ = 0.2: the interval of the geometric mean of n is about exp(±1.96 · 0.2 / √n)
     * around it, and the same seed gives the same interval.
     */
    @Test
    void theIntervalHasTheWidthTheSpreadImplies() {
        SplittableRandom rnd = new SplittableRandom(3);
        List<Double> xs = new ArrayList<>();
        int n = 400;
        for (int i = 0; i < n; i++) {
            double z = 0;
            for (int k = 0; k < 12; k++) {
                z += rnd.nextDouble();
            }
            xs.add(Math.exp(0.2 * (z - 6)));
        }
        Bootstrap.Interval i = Bootstrap.geomean95(xs, 5);
        double halfWidth = Math.log(i.high() / i.low()) / 2;
        assertEquals(1.96 * 0.2 / Math.sqrt(n), halfWidth, 0.15 * 1.96 * 0.2 / Math.sqrt(n));
        assertTrue(i.low() < i.estimate() && i.estimate() < i.high());
        assertEquals(i, Bootstrap.geomean95(xs, 5));
    }

    @Test
    void nonPositiveValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Bootstrap.geomean(List.of(1.0, 0.0)));
        assertThrows(IllegalArgumentException.class, () -> Bootstrap.geomean(List.of()));
    }
}
