package io.saba.core.model;

/**
 * The geometry behind {@link SensitivityModel#convexEnvelopeBridge} and {@link SensitivityModel#derivativeRoot}:
 * closed forms for polynomials of degree ≤ 3, monotone one-dimensional searches for models with a 1/b term.
 */
final class EnvelopeBridge {
    private static final int MAX_ITERATIONS = 200;

    private EnvelopeBridge() {
    }

    /**
     * A cubic has at most one inflection point, so its envelope is the model itself except on at most one bridge,
     * tangent to the model where it meets its convex part. For a tangent from the endpoint e the contact point t
     * solves D'(t)(t − e) = D(t) − D(e); that difference is (t − e)²·(2c₃t + c₂ + c₃e), so t = −(c₂ + c₃e) / (2c₃)
     * without iteration.
     */
    static double[] cubic(double c2, double c3, double lo, double hi) {
        if (hi <= lo) {
            return null;
        }
        if (c3 == 0) {
            return c2 < 0 ? new double[] {lo, hi} : null;
        }
        double inflection = -c2 / (3 * c3);
        if (c3 > 0) { // concave left of the inflection, convex right of it
            if (inflection <= lo) {
                return null;
            }
            if (inflection >= hi) {
                return new double[] {lo, hi};
            }
            double t = -(c2 + c3 * lo) / (2 * c3);
            return new double[] {lo, Math.min(hi, Math.max(t, inflection))};
        }
        // c3 < 0: convex left of the inflection, concave right of it
        if (inflection >= hi) {
            return null;
        }
        if (inflection <= lo) {
            return new double[] {lo, hi};
        }
        double t = -(c2 + c3 * hi) / (2 * c3);
        return new double[] {Math.max(lo, Math.min(t, inflection)), hi};
    }

    /**
     * Solves a·x² + b·x + cc = 0 for the root where the derivative 2ax + b ≥ 0 (D'(x) = λ with cc = c1 − λ on a
     * stretch where D' is non-decreasing), clamped to [p, q].
     */
    static double quadraticRoot(double a, double b, double cc, double p, double q) {
        double x;
        if (a == 0) {
            x = b == 0 ? p : -cc / b;
        } else {
            double disc = b * b - 4 * a * cc;
            // Of the two roots, the one where 2ax + b ≥ 0 is (−b + √disc) / 2a for either sign of a.
            x = disc <= 0 ? -b / (2 * a) : stableRoot(a, b, disc, cc);
        }
        if (!(x >= p)) {
            x = p;
        }
        return Math.min(x, q);
    }

    /** (−b + √disc) / 2a without cancellation when b is large and positive. */
    private static double stableRoot(double a, double b, double disc, double cc) {
        double s = Math.sqrt(disc);
        if (b > 0) {
            return (2 * cc) / (-b - s);
        }
        return (-b + s) / (2 * a);
    }

    /** D'(x) = slope on [p, q] where D' is non-decreasing: closed form for a + r/b, else safeguarded Newton. */
    static double monotoneRoot(SensitivityModel m, double slope, double p, double q) {
        if (m.derivative(p) >= slope) {
            return p;
        }
        if (m.derivative(q) <= slope) {
            return q;
        }
        if (m.coefficient(1) == 0 && m.coefficient(2) == 0 && m.coefficient(3) == 0) {
            // −r/x² = slope, slope < 0 here because D'(q) > slope and D' < 0 everywhere
            return Math.min(q, Math.max(p, Math.sqrt(m.inverseCoefficient() / -slope)));
        }
        double a = p;
        double b = q;
        double x = 0.5 * (a + b);
        for (int i = 0; i < MAX_ITERATIONS && b - a > 1e-15 * b; i++) {
            double f = m.derivative(x) - slope;
            if (f == 0) {
                return x;
            }
            if (f < 0) {
                a = x;
            } else {
                b = x;
            }
            double curvature = m.secondDerivative(x);
            double next = curvature > 0 ? x - f / curvature : Double.NaN;
            x = next > a && next < b ? next : 0.5 * (a + b);
        }
        return x;
    }

    /**
     * The bridge of a model with a 1/b term (r &gt; 0) on [lo, hi], lo &gt; 0. With K = [kLo, kHi] its concave
     * stretch within [lo, hi], the envelope is D on [lo, u], the segment from u to v, and D on [v, hi], where u in
     * [lo, kLo] and v in [kHi, hi] are where one line of slope s supports D on both convex sides. For a slope s let
     * u(s) and v(s) minimise D(x) − s·x on the two sides; h(s) = (D(v) − s·v) − (D(u) − s·u) has h'(s) = u − v &lt; 0
     * (envelope theorem), so the bridge's slope is the one root of a strictly decreasing function, found by Newton
     * safeguarded by bisection. The line then lies below D on both convex sides by construction and on K because
     * D − line is concave there and non-negative at K's ends.
     */
    static double[] general(SensitivityModel m, double lo, double hi) {
        if (!(lo > 0)) {
            throw new IllegalArgumentException("a model with a 1/b term is unbounded at zero bandwidth; its envelope "
                    + "needs a positive lower bound, got " + lo);
        }
        if (hi <= lo) {
            return null;
        }
        double[] concave = concaveStretch(m);
        if (concave == null) {
            return null;
        }
        double kLo = Math.max(lo, concave[0]);
        double kHi = Math.min(hi, concave[1]);
        if (!(kHi > kLo)) {
            return null;
        }
        double sLo = Math.min(Math.min(m.derivative(lo), m.derivative(kHi)), chord(m, lo, kHi));
        double sHi = Math.max(Math.max(m.derivative(kLo), m.derivative(hi)), chord(m, kLo, hi));
        sLo -= 1 + Math.abs(sLo);
        sHi += 1 + Math.abs(sHi);
        double s = chord(m, lo, hi);
        double u = lo;
        double v = hi;
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            u = m.derivativeRoot(s, lo, kLo);
            v = m.derivativeRoot(s, kHi, hi);
            double h = (m.slowdown(v) - s * v) - (m.slowdown(u) - s * u);
            if (h == 0) {
                break;
            }
            if (h > 0) {
                sLo = s;
            } else {
                sHi = s;
            }
            if (sHi - sLo <= 1e-15 * Math.max(1, Math.abs(s))) {
                break;
            }
            double next = s + h / (v - u);
            s = next > sLo && next < sHi ? next : 0.5 * (sLo + sHi);
        }
        return v > u ? new double[] {u, v} : null;
    }

    private static double chord(SensitivityModel m, double x, double y) {
        return (m.slowdown(y) - m.slowdown(x)) / (y - x);
    }

    /**
     * Where D'' &lt; 0 on b &gt; 0, as {p, q} (q may be +∞), or null if D is convex there. The sign of D'' is the
     * sign of g(b) = 3c3·b⁴ + c2·b³ + r, and g(0) = r &gt; 0.
     */
    static double[] concaveStretch(SensitivityModel m) {
        double c2 = m.coefficient(2);
        double c3 = m.coefficient(3);
        double r = m.inverseCoefficient();
        java.util.function.DoubleUnaryOperator g = b -> ((3 * c3 * b + c2) * b * b) * b + r;
        if (c3 == 0) {
            return c2 >= 0 ? null : new double[] {Math.cbrt(r / -c2), Double.POSITIVE_INFINITY};
        }
        double turn = -c2 / (4 * c3); // g' = 3b²(4c3·b + c2) changes sign here
        if (c3 > 0) {
            if (c2 >= 0 || g.applyAsDouble(turn) >= 0) {
                return null; // g falls to its minimum at turn and rises after: convex if that minimum is ≥ 0
            }
            return new double[] {signChange(g, 0, turn), signChange(g, turn, upperBracket(g, turn))};
        }
        // c3 < 0: g rises (if c2 > 0) until turn, then falls to −∞: one sign change, after max(turn, 0)
        double from = Math.max(0, turn);
        return new double[] {signChange(g, from, upperBracket(g, from)), Double.POSITIVE_INFINITY};
    }

    /** A point past {@code from} where g has the sign opposite to g(from), doubling outward. */
    private static double upperBracket(java.util.function.DoubleUnaryOperator g, double from) {
        boolean positive = g.applyAsDouble(from) > 0;
        double step = Math.max(1, from);
        double x = from + step;
        while ((g.applyAsDouble(x) > 0) == positive && x < 1e12) {
            step *= 2;
            x = from + step;
        }
        return x;
    }

    /** Bisection for the sign change of g in [a, b], to the last bit. */
    private static double signChange(java.util.function.DoubleUnaryOperator g, double a, double b) {
        boolean positiveAtA = g.applyAsDouble(a) > 0;
        for (int i = 0; i < MAX_ITERATIONS; i++) {
            double mid = 0.5 * (a + b);
            if (mid <= a || mid >= b) {
                break;
            }
            if ((g.applyAsDouble(mid) > 0) == positiveAtA) {
                a = mid;
            } else {
                b = mid;
            }
        }
        return 0.5 * (a + b);
    }
}
