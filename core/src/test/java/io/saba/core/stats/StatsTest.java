package io.saba.core.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void medianIsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes() {
        assertEquals(3.0, Stats.median(new double[] {5, 1, 3}));
        assertEquals(2.5, Stats.median(new double[] {4, 1, 3, 2}));
        assertEquals(7.0, Stats.median(List.of(7.0)));
        assertTrue(Double.isNaN(Stats.median(new double[0])));
    }

    @Test
    void theArgumentIsNotReordered() {
        double[] v = {5, 1, 3, 2};
        Stats.median(v);
        Stats.quantile(v, 0.9);
        assertArrayEquals(new double[] {5, 1, 3, 2}, v);
    }

    @Test
    void quantileIsNearestRank() {
        double[] v = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
        assertEquals(50.0, Stats.quantile(v, 0.5));
        assertEquals(90.0, Stats.quantile(v, 0.9));
        assertEquals(100.0, Stats.quantile(v, 0.99));
        assertEquals(10.0, Stats.quantile(v, 0.01));
        assertTrue(Double.isNaN(Stats.quantile(new double[0], 0.5)));
        assertThrows(IllegalArgumentException.class, () -> Stats.quantile(v, 0));
    }

    /** Bit for bit the numbers of the hand-written medians and quantiles the callers had, on random samples. */
    @Test
    void sameNumbersAsTheFormerHandWrittenOnes() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int t = 0; t < 5000; t++) {
            int n = 1 + rnd.nextInt(60);
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = rnd.nextInt(4) == 0 ? rnd.nextInt(5) : rnd.nextDouble() * Math.pow(10, rnd.nextInt(8) - 3);
            }
            double[] s = v.clone();
            Arrays.sort(s);
            int m = n / 2;
            double median = n % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
            assertEquals(Double.doubleToLongBits(median), Double.doubleToLongBits(Stats.median(v)), Arrays.toString(v));
            for (double q : new double[] {0.01, 0.1, 0.25, 0.29, 0.5, 0.57, 0.75, 0.9, 0.95, 0.99, 0.999, 1}) {
                double rank = s[Math.min(n - 1, Math.max(0, (int) Math.ceil(q * n) - 1))];
                assertEquals(Double.doubleToLongBits(rank), Double.doubleToLongBits(Stats.quantile(v, q)),
                        "q " + q + " of " + Arrays.toString(v));
            }
        }
    }

    @Test
    void geomeanIsExpOfTheMeanLog() {
        assertEquals(4.0, Stats.geomean(List.of(2.0, 8.0)), 1e-12);
        List<Double> xs = List.of(0.7, 1.3, 2.9, 1.01);
        double s = 0;
        for (double x : xs) {
            s += Math.log(x);
        }
        assertEquals(Math.exp(s / xs.size()), Stats.geomean(xs));
        assertEquals(Stats.geomean(xs), Bootstrap.geomean(xs));
        assertTrue(Double.isNaN(Stats.geomean(List.of())));
    }
}
