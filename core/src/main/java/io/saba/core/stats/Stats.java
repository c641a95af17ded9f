package io.saba.core.stats;

import java.util.Collection;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

/**
 * The summary statistics the project reports, one definition each: the median (the middle value, the mean of the two
 * middle ones for an even count), the nearest-rank quantile (the smallest value with at least a fraction q of the
 * values at or below it, no interpolation) and the geometric mean. Medians and quantiles are Commons Math's
 * {@link Percentile} with the estimation type that is exactly that definition ({@code R_2} and {@code R_1}); the
 * arguments are never reordered.
 */
public final class Stats {
    private Stats() {
    }

    /** The median; NaN for no values. */
    public static double median(double[] values) {
        return new Percentile().withEstimationType(Percentile.EstimationType.R_2).evaluate(values, 50);
    }

    /** The median; NaN for no values. */
    public static double median(Collection<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * The nearest-rank quantile, {@code q} in (0, 1]: the value of rank ⌈q·n⌉ (1-based) in sorted order, the
     * quantile the benchmark tables and the fabric load report; NaN for no values.
     */
    public static double quantile(double[] values, double q) {
        if (!(q > 0 && q <= 1)) {
            throw new IllegalArgumentException("a quantile is in (0, 1], got " + q);
        }
        return new Percentile().withEstimationType(Percentile.EstimationType.R_1).evaluate(values, 100 * q);
    }

    /**
     * The geometric mean, exp of the mean of the natural logs (with {@link Math}'s log and exp, so a mean does not
     * move in its last bits between callers); NaN for no values. Values are not checked: a zero gives 0, a negative
     * value NaN.
     */
    public static double geomean(Collection<Double> values) {
        double s = 0;
        for (double x : values) {
            s += Math.log(x);
        }
        return values.isEmpty() ? Double.NaN : Math.exp(s / values.size());
    }
}
