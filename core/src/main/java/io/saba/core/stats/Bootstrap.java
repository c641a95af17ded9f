package io.saba.core.stats;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * Percentile-bootstrap confidence intervals of a geometric mean: the interval a campaign reports beside its mean
 * speedup over setups. Resampling is seeded, so a report is reproducible from its rows.
 */
public final class Bootstrap {
    /** Resamples per interval: enough that the 2.5 % and 97.5 % quantiles move by well under 0.1 %. */
    public static final int RESAMPLES = 4000;

    private Bootstrap() {
    }

    /** A point estimate with its two-sided interval. */
    public record Interval(double estimate, double low, double high) {
        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%.3f [%.3f, %.3f]", estimate, low, high);
        }
    }

    /** Geometric mean ({@link Stats#geomean}) of positive values; anything else is refused. */
    public static double geomean(List<Double> xs) {
        if (xs.isEmpty()) {
            throw new IllegalArgumentException("the geometric mean of nothing");
        }
        for (double x : xs) {
            if (!(x > 0)) {
                throw new IllegalArgumentException("the geometric mean needs positive values, got " + x);
            }
        }
        return Stats.geomean(xs);
    }

    /**
     * The geometric mean of {@code xs} with its 95 % percentile-bootstrap interval, resampling the values with
     * replacement ({@link #RESAMPLES} times, from {@code seed}).
     */
    public static Interval geomean95(List<Double> xs, long seed) {
        double[] logs = new double[xs.size()];
        for (int i = 0; i < logs.length; i++) {
            logs[i] = Math.log(xs.get(i));
        }
        double point = geomean(xs);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] means = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            double s = 0;
            for (int i = 0; i < logs.length; i++) {
                s += logs[rnd.nextInt(logs.length)];
            }
            means[r] = s / logs.length;
        }
        Arrays.sort(means);
        Percentile p = new Percentile().withEstimationType(Percentile.EstimationType.R_7);
        p.setData(means);
        return new Interval(point, Math.exp(p.evaluate(2.5)), Math.exp(p.evaluate(97.5)));
    }
}
