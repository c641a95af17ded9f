package io.saba.core.model;

import java.util.Arrays;

/**
 * A workload's sensitivity model: the predicted slowdown D(b) = c0 + c1·b + … + ck·b^k at bandwidth share b
 * (the paper's Eq. 1).
 *
 * <p>b is a <em>fraction</em> of the link (0 &lt; b ≤ 1), not a percentage: with percentages a cubic's
 * coefficients span six orders of magnitude, which skews K-means on coefficient vectors and the conditioning of
 * the fit. Callers that speak percent convert at the edge.
 *
 * <p>Immutable; the coefficient array is copied in and out.
 */
public final class SensitivityModel {
    /** The largest degree Saba fits; the solver's closed forms rely on it. */
    public static final int MAX_DEGREE = 3;

    private final double[] c;

    private SensitivityModel(double[] coefficients) {
        this.c = coefficients;
    }

    /**
     * @param coefficients c0..ck, lowest power first; 1 ≤ k ≤ 3 after dropping nothing (trailing zeros are kept
     *                     so the degree a user asked for survives a round trip)
     */
    public static SensitivityModel of(double... coefficients) {
        if (coefficients == null || coefficients.length < 1 || coefficients.length > MAX_DEGREE + 1) {
            throw new IllegalArgumentException("a sensitivity model needs 1 to " + (MAX_DEGREE + 1)
                    + " coefficients, got " + (coefficients == null ? "none" : coefficients.length));
        }
        for (int i = 0; i < coefficients.length; i++) {
            if (!Double.isFinite(coefficients[i])) {
                throw new IllegalArgumentException("coefficient c" + i + " is not a finite number: " + coefficients[i]);
            }
        }
        return new SensitivityModel(coefficients.clone());
    }

    /** A model that predicts no slowdown at any share: for applications that do not care about bandwidth. */
    public static SensitivityModel flat() {
        return new SensitivityModel(new double[] {1.0});
    }

    public int degree() {
        return c.length - 1;
    }

    /** c0..ck, lowest power first (a copy). */
    public double[] coefficients() {
        return c.clone();
    }

    /** Coefficient of b^i, zero above the degree. */
    public double coefficient(int i) {
        return i < c.length ? c[i] : 0.0;
    }

    /** D(b), Horner. */
    public double slowdown(double b) {
        double v = 0;
        for (int i = c.length - 1; i >= 0; i--) {
            v = v * b + c[i];
        }
        return v;
    }

    /** D'(b). */
    public double derivative(double b) {
        double v = 0;
        for (int i = c.length - 1; i >= 1; i--) {
            v = v * b + i * c[i];
        }
        return v;
    }

    /** D''(b). */
    public double secondDerivative(double b) {
        double v = 0;
        for (int i = c.length - 1; i >= 2; i--) {
            v = v * b + i * (i - 1) * c[i];
        }
        return v;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SensitivityModel m && Arrays.equals(c, m.c);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(c);
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
        return s.toString();
    }
}
