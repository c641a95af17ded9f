package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;

/**
 * The convex envelope (largest convex under-estimator) of a polynomial sensitivity model of degree ≤ 3 on an
 * interval [lo, hi], in closed form.
 *
 * <p>A cubic has at most one inflection point, so its envelope is the model itself except on at most one
 * <em>bridge</em>: a straight segment [bridgeLo, bridgeHi] tangent to the model where it meets its convex part.
 * For a tangent from the endpoint e the contact point t solves D'(t)(t − e) = D(t) − D(e); that difference is
 * (t − e)²·(2c₃t + c₂ + c₃e), so t = −(c₂ + c₃e) / (2c₃) without iteration.
 *
 * <p>{@link #argminShifted} gives the minimiser of E(x) − λx, the building block of the Lagrangian relaxation.
 */
final class ConvexEnvelope {
    final SensitivityModel model;
    final double lo;
    final double hi;
    /** Bridge bounds; {@code bridgeLo == bridgeHi} (NaN) when the model is convex on [lo, hi]. */
    final double bridgeLo;
    final double bridgeHi;
    /** Slope of the bridge. */
    final double slope;
    /** E'(lo+) and E'(hi−): below the first λ sits at lo, above the second at hi. */
    final double slopeLo;
    final double slopeHi;
    private final double a; // D'(x) = a x² + b x + c
    private final double b;
    private final double c;

    ConvexEnvelope(SensitivityModel model, double lo, double hi) {
        this.model = model;
        this.lo = lo;
        this.hi = hi;
        double c1 = model.coefficient(1);
        double c2 = model.coefficient(2);
        double c3 = model.coefficient(3);
        this.a = 3 * c3;
        this.b = 2 * c2;
        this.c = c1;
        double[] bridge = bridge(c2, c3);
        this.bridgeLo = bridge[0];
        this.bridgeHi = bridge[1];
        this.slope = hasBridge() ? (model.slowdown(bridgeHi) - model.slowdown(bridgeLo)) / (bridgeHi - bridgeLo) : Double.NaN;
        this.slopeLo = hasBridge() && bridgeLo <= lo ? slope : model.derivative(lo);
        this.slopeHi = hasBridge() && bridgeHi >= hi ? slope : model.derivative(hi);
    }

    private double[] bridge(double c2, double c3) {
        double none = Double.NaN;
        if (hi <= lo) {
            return new double[] {none, none};
        }
        if (c3 == 0) {
            return c2 < 0 ? new double[] {lo, hi} : new double[] {none, none};
        }
        double inflection = -c2 / (3 * c3);
        if (c3 > 0) { // concave left of the inflection, convex right of it
            if (inflection <= lo) {
                return new double[] {none, none};
            }
            if (inflection >= hi) {
                return new double[] {lo, hi};
            }
            double t = -(c2 + c3 * lo) / (2 * c3);
            return new double[] {lo, Math.min(hi, Math.max(t, inflection))};
        }
        // c3 < 0: convex left of the inflection, concave right of it
        if (inflection >= hi) {
            return new double[] {none, none};
        }
        if (inflection <= lo) {
            return new double[] {lo, hi};
        }
        double t = -(c2 + c3 * hi) / (2 * c3);
        return new double[] {Math.max(lo, Math.min(t, inflection)), hi};
    }

    boolean hasBridge() {
        return !Double.isNaN(bridgeLo) && bridgeHi > bridgeLo;
    }

    /** E(x). */
    double value(double x) {
        if (hasBridge() && x > bridgeLo && x < bridgeHi) {
            return model.slowdown(bridgeLo) + slope * (x - bridgeLo);
        }
        return model.slowdown(x);
    }

    /** How far the model lies above its envelope at x (zero off the bridge). */
    double gap(double x) {
        return model.slowdown(x) - value(x);
    }

    /** True if x lies strictly inside the bridge, where the envelope under-estimates the model. */
    boolean onBridge(double x) {
        return hasBridge() && x > bridgeLo && x < bridgeHi;
    }

    /**
     * A minimiser of E(x) − λx on [lo, hi]. Where the minimisers form a segment (λ equals the bridge slope),
     * {@code high} picks its upper end, else its lower end; the result is non-decreasing in λ either way.
     */
    double argminShifted(double lambda, boolean high) {
        if (lambda < slopeLo || (lambda == slopeLo && !high)) {
            return lo;
        }
        if (lambda > slopeHi || (lambda == slopeHi && high)) {
            return hi;
        }
        if (!hasBridge()) {
            return rootOfDerivative(lambda, lo, hi);
        }
        if (lambda < slope) {
            return rootOfDerivative(lambda, lo, bridgeLo);
        }
        if (lambda > slope) {
            return rootOfDerivative(lambda, bridgeHi, hi);
        }
        return high ? bridgeHi : bridgeLo;
    }

    /**
     * E''(x) where the envelope is smooth and strictly convex, used for Newton steps on λ; zero on the bridge or
     * at a bound.
     */
    double curvature(double x) {
        if (x <= lo || x >= hi || onBridge(x)) {
            return 0;
        }
        return Math.max(0, model.secondDerivative(x));
    }

    /** Solves D'(x) = λ on [p, q], where D' is non-decreasing. */
    private double rootOfDerivative(double lambda, double p, double q) {
        double x;
        double cc = c - lambda;
        if (a == 0) {
            x = b == 0 ? p : -cc / b;
        } else {
            double disc = b * b - 4 * a * cc;
            // Of the two roots, the one where D'' = 2ax + b ≥ 0 is (−b + √disc) / 2a for either sign of a.
            x = disc <= 0 ? -b / (2 * a) : stableRoot(disc, cc);
        }
        if (!(x >= p)) {
            x = p;
        }
        return Math.min(x, q);
    }

    /** (−b + √disc) / 2a without cancellation when b is large and positive. */
    private double stableRoot(double disc, double cc) {
        double s = Math.sqrt(disc);
        if (b > 0) {
            return (2 * cc) / (-b - s);
        }
        return (-b + s) / (2 * a);
    }
}
