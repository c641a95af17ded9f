package io.saba.core.model;

import java.util.Arrays;
import java.util.List;

/**
 * A workload's sensitivity model: the predicted slowdown at bandwidth share b,
 * D(b) = c0 + c1·b + c2·b² + c3·b³ + r/b, with r ≥ 0.
 *
 * <p>Each {@link ModelFamily} is a way of fitting a point of this one space: the paper's polynomials (Eq. 1) have
 * r = 0, the compute + transfer model a + c/b has c1 = c2 = c3 = 0. One space rather than one class per family
 * because Saba averages models (K-means centroids, the controller's model for unknown workloads), and the average
 * of a cubic and an a + c/b curve must still be a model the Eq. 2 solver handles exactly: this space is closed under
 * weighted means, and every member has at most one concave stretch on b &gt; 0 (see {@link #convexEnvelopeBridge}).
 *
 * <p>b is a <em>fraction</em> of the link (0 &lt; b ≤ 1), not a percentage: with percentages a cubic's
 * coefficients span six orders of magnitude, which hurts the conditioning of the fit. Callers that speak percent
 * convert at the edge.
 *
 * <p>Immutable; arrays are copied in and out.
 */
public final class SensitivityModel {
    /** The largest polynomial degree Saba fits; the solver's closed forms rely on it. */
    public static final int MAX_DEGREE = 3;
    /** Length of {@link #coefficients()} for a model with a 1/b term: c0..c3 and r. */
    public static final int GENERAL_LENGTH = MAX_DEGREE + 2;

    private final double[] c;
    private final double r;
    /**
     * The polynomial part in closed form for the solver's innermost loop: c0..c3 (zero above the degree), and D'(x)
     * as slopeA·x² + slopeB·x + slopeC = 3c3·x² + 2c2·x + c1. Evaluated in the same order as Horner's rule on c, so
     * the closed forms give the same bits as the loop over c they replace (a trailing zero coefficient adds an
     * exact zero).
     */
    private final double c0;
    private final double c1;
    private final double c2;
    private final double c3;
    private final double slopeA;
    private final double slopeB;
    private final double slopeC;
    /** Models key the solver's envelope cache, looked up at every port: the hash is computed once. */
    private final int hash;

    private SensitivityModel(double[] polynomial, double inverse) {
        this.c = polynomial;
        this.r = inverse;
        this.c0 = coefficient(0);
        this.c1 = coefficient(1);
        this.c2 = coefficient(2);
        this.c3 = coefficient(3);
        this.slopeA = 3 * coefficient(3);
        this.slopeB = 2 * coefficient(2);
        this.slopeC = coefficient(1);
        this.hash = 31 * Arrays.hashCode(c) + Double.hashCode(r);
    }

    /**
     * @param coordinates 1 to 4 numbers: the polynomial c0..ck, lowest power first (trailing zeros are kept so the
     *                    degree a user asked for survives a round trip); or 5 numbers c0, c1, c2, c3, r as
     *                    {@link #coefficients()} returns them for a model with a 1/b term
     */
    public static SensitivityModel of(double... coordinates) {
        if (coordinates == null || coordinates.length < 1 || coordinates.length > GENERAL_LENGTH) {
            throw new IllegalArgumentException("a sensitivity model needs 1 to " + (MAX_DEGREE + 1)
                    + " polynomial coefficients, or " + GENERAL_LENGTH + " with the 1/b coefficient, got "
                    + (coordinates == null ? "none" : coordinates.length));
        }
        for (int i = 0; i < coordinates.length; i++) {
            if (!Double.isFinite(coordinates[i])) {
                throw new IllegalArgumentException("coefficient c" + i + " is not a finite number: " + coordinates[i]);
            }
        }
        if (coordinates.length < GENERAL_LENGTH) {
            return new SensitivityModel(coordinates.clone(), 0);
        }
        double inverse = coordinates[MAX_DEGREE + 1];
        double[] polynomial = Arrays.copyOf(coordinates, MAX_DEGREE + 1);
        return inverse == 0 ? new SensitivityModel(polynomial, 0) : withInverse(polynomial, inverse);
    }

    /**
     * The compute + transfer model D(b) = a + c/b: a job that computes for a fixed time and moves a fixed number of
     * bytes, normalised to its time at the full link (so a + c = 1 when D(1) = 1).
     *
     * @param a the part of the run that does not depend on bandwidth
     * @param c the part that scales as 1/b, ≥ 0
     */
    public static SensitivityModel inverse(double a, double c) {
        if (!Double.isFinite(a)) {
            throw new IllegalArgumentException("a is not a finite number: " + a);
        }
        return c == 0 ? new SensitivityModel(new double[] {a}, 0) : withInverse(new double[] {a}, c);
    }

    private static SensitivityModel withInverse(double[] polynomial, double inverse) {
        if (!(inverse > 0) || Double.isInfinite(inverse)) {
            throw new IllegalArgumentException("the 1/b coefficient must be a finite number ≥ 0 (a negative one would "
                    + "make the slowdown fall towards zero bandwidth), got " + inverse);
        }
        int length = polynomial.length;
        while (length > 1 && polynomial[length - 1] == 0) {
            length--; // with a 1/b term the degree means nothing; one form per function keeps equals() exact
        }
        return new SensitivityModel(Arrays.copyOf(polynomial, length), inverse);
    }

    /** A model that predicts no slowdown at any share: for applications that do not care about bandwidth. */
    public static SensitivityModel flat() {
        return new SensitivityModel(new double[] {1.0}, 0);
    }

    /**
     * The weighted mean of models, which predicts the weighted mean slowdown at every share (the model space is
     * linear). Polynomials stay polynomials of the largest input degree.
     *
     * @param weights one positive weight per model (e.g. how many applications run it)
     */
    public static SensitivityModel mean(List<SensitivityModel> models, double[] weights) {
        if (models.isEmpty() || weights.length != models.size()) {
            throw new IllegalArgumentException("need one weight per model and at least one model, got "
                    + models.size() + " models and " + weights.length + " weights");
        }
        double total = 0;
        int length = 1;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] > 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weight " + i + " must be positive and finite, got " + weights[i]);
            }
            total += weights[i];
            length = Math.max(length, models.get(i).c.length);
        }
        double[] sum = new double[length];
        double inverse = 0;
        for (int i = 0; i < weights.length; i++) {
            SensitivityModel m = models.get(i);
            for (int k = 0; k < m.c.length; k++) {
                sum[k] += weights[i] * m.c[k];
            }
            inverse += weights[i] * m.r;
        }
        for (int k = 0; k < length; k++) {
            sum[k] /= total;
        }
        inverse /= total;
        return inverse == 0 ? new SensitivityModel(sum, 0) : withInverse(sum, inverse);
    }

    /** The unweighted mean (see {@link #mean(List, double[])}). */
    public static SensitivityModel mean(List<SensitivityModel> models) {
        double[] ones = new double[models.size()];
        Arrays.fill(ones, 1.0);
        return mean(models, ones);
    }

    /** True without a 1/b term: D is the polynomial c0..ck. */
    public boolean isPolynomial() {
        return r == 0;
    }

    /**
     * The polynomial degree k.
     *
     * @throws IllegalStateException for a model with a 1/b term, which has none: code that rebuilds models from
     *                               per-degree coefficients would silently drop that term (average models with
     *                               {@link #mean} instead)
     */
    public int degree() {
        if (r != 0) {
            throw new IllegalStateException(this + " has a 1/b term and no polynomial degree; average models with "
                    + "SensitivityModel.mean and copy them with coefficients() / of(...)");
        }
        return c.length - 1;
    }

    /**
     * The model's coordinates, a copy: c0..ck (lowest power first) for a polynomial; for a model with a 1/b term
     * the five numbers c0, c1, c2, c3, r. Either way {@link #of(double...)} rebuilds an equal model from them.
     */
    public double[] coefficients() {
        if (r == 0) {
            return c.clone();
        }
        double[] all = Arrays.copyOf(c, GENERAL_LENGTH);
        all[MAX_DEGREE + 1] = r;
        return all;
    }

    /** Coefficient of b^i, zero above the polynomial part. */
    public double coefficient(int i) {
        return i < c.length ? c[i] : 0.0;
    }

    /** r, the coefficient of 1/b (zero for a polynomial). */
    public double inverseCoefficient() {
        return r;
    }

    /** D(b), Horner. */
    public double slowdown(double b) {
        double v = ((c3 * b + c2) * b + c1) * b + c0;
        return r == 0 ? v : v + r / b;
    }

    /** D'(b). */
    public double derivative(double b) {
        double v = (slopeA * b + slopeB) * b + slopeC;
        return r == 0 ? v : v - r / (b * b);
    }

    /** D''(b). */
    public double secondDerivative(double b) {
        double v = 2 * slopeA * b + slopeB;
        return r == 0 ? v : v + 2 * r / (b * b * b);
    }

    /**
     * True if D does not rise anywhere on [lo, hi] (0 &lt; lo ≤ hi): more bandwidth never predicts a slower job.
     * Exact for polynomials (D' is at most quadratic); with a 1/b term, checked on a grid of 2,000 steps.
     */
    public boolean isNonIncreasingOn(double lo, double hi) {
        double tolerance = 1e-9 * Math.max(1, Math.abs(slowdown(hi)));
        if (derivative(lo) > tolerance || derivative(hi) > tolerance) {
            return false;
        }
        if (r == 0) {
            double a = 3 * coefficient(3);
            double b = 2 * coefficient(2);
            if (a < 0 && -b / (2 * a) > lo && -b / (2 * a) < hi) {
                return derivative(-b / (2 * a)) <= tolerance; // D' is a downward parabola: its vertex is its max
            }
            return true; // D' is monotone or convex on [lo, hi]: its max is at an end
        }
        int steps = 2000;
        for (int i = 1; i < steps; i++) {
            if (derivative(lo + (hi - lo) * i / steps) > tolerance) {
                return false;
            }
        }
        return true;
    }

    /**
     * The one interval on which the convex envelope of D over [lo, hi] is a straight segment lying below D (the
     * envelope equals D elsewhere), or null where D is convex on [lo, hi].
     *
     * <p>Why one: b³·D''(b)/2 = 3c3·b⁴ + c2·b³ + r, whose derivative 3b²(4c3·b + c2) changes sign at most once on
     * b &gt; 0, so it has at most two positive roots and D is at most convex, concave, convex there (r ≥ 0 makes it
     * convex near 0). A single concave stretch needs a single bridge. For polynomials the bridge is closed-form; with
     * a 1/b term it is found by a monotone search on the bridge's slope ({@link EnvelopeBridge}).
     *
     * @return {bridgeLo, bridgeHi} with lo ≤ bridgeLo &lt; bridgeHi ≤ hi, or null
     */
    public double[] convexEnvelopeBridge(double lo, double hi) {
        return r == 0 ? EnvelopeBridge.cubic(coefficient(2), coefficient(3), lo, hi) : EnvelopeBridge.general(this, lo, hi);
    }

    /**
     * The x in [p, q] where D'(x) = slope, for an interval on which D' is non-decreasing (a convex stretch of D);
     * p if D' is above the slope throughout, q if below.
     */
    public double derivativeRoot(double slope, double p, double q) {
        return r == 0 ? EnvelopeBridge.quadraticRoot(slopeA, slopeB, slopeC - slope, p, q)
                : EnvelopeBridge.monotoneRoot(this, slope, p, q);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SensitivityModel m && Arrays.equals(c, m.c) && Double.compare(r, m.r) == 0;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("D(b) = ");
        for (int i = 0; i < c.length; i++) {
            if (i > 0) {
                s.append(c[i] < 0 ? " - " : " + ");
            } else if (c[i] < 0) {
                s.append('-');
            }
            s.append(String.format("%.6g", Math.abs(c[i])));
            if (i >= 1) {
                s.append("·b");
            }
            if (i >= 2) {
                s.append('^').append(i);
            }
        }
        if (r != 0) {
            s.append(" + ").append(String.format("%.6g", r)).append("/b");
        }
        return s.toString();
    }
}
