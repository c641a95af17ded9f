package io.saba.harness.campaign;

import io.saba.harness.csv.CsvLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The empirical CDF of a sample: the i-th smallest of n values is at (i + 1) / n, so it climbs by 1/n at each value
 * and ends at exactly 1 (n / n). What the CSV files list and the step curves draw.
 */
public final class Cdf {
    private Cdf() {
    }

    /** (value, F(value)) for each value of {@code sorted} (ascending). */
    public static List<double[]> points(List<Double> sorted) {
        List<double[]> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            out.add(new double[] {sorted.get(i), fraction(i + 1, sorted.size())});
        }
        return out;
    }

    /**
     * The step curve through the points: at each value a vertical rise from the fraction below it to its own, so a
     * line drawn through these corners is the CDF itself (flat between values, never interpolated).
     */
    public static List<double[]> steps(List<Double> sorted) {
        List<double[]> out = new ArrayList<>(2 * sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            out.add(new double[] {sorted.get(i), fraction(i, sorted.size())});
            out.add(new double[] {sorted.get(i), fraction(i + 1, sorted.size())});
        }
        return out;
    }

    /** "speedup,cdf" lines, four decimals. */
    public static String csv(String valueColumn, List<Double> sorted) {
        StringBuilder b = new StringBuilder(CsvLine.of(valueColumn, "cdf"));
        for (double[] p : points(sorted)) {
            b.append(CsvLine.of(String.format(Locale.ROOT, "%.4f", p[0]), String.format(Locale.ROOT, "%.4f", p[1])));
        }
        return b.toString();
    }

    // k / n computed as a quotient of the counts, so n / n is exactly 1.0 (a running sum of 1/n is not)
    private static double fraction(int k, int n) {
        return (double) k / n;
    }
}
