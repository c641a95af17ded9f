package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;

/**
 * The convex envelope (largest convex under-estimator) of a sensitivity model on an interval [lo, hi].
 *
 * <p>Every model has at most one concave stretch, so its envelope is the model itself except on at most one
 * <em>bridge</em>: a straight segment [bridgeLo, bridgeHi] that supports the model where it meets its convex parts.
 * The model supplies the bridge and the roots of D'(x) = λ on its convex stretches
 * ({@link SensitivityModel#convexEnvelopeBridge}, {@link SensitivityModel#derivativeRoot}): closed forms for
 * polynomials, monotone searches with a 1/b term.
 *
 * <p>{@link #argminShifted} gives the minimiser of E(x) − λx, the building block of the Lagrangian relaxation.
 */
final class ConvexEnvelope {
    final SensitivityModel model;
    final double lo;
    final double hi;
    /** Bridge bounds; NaN when the model is convex on [lo, hi]. */
    final double bridgeLo;
    final double bridgeHi;
    /** Slope of the bridge. */
    final double slope;
    /** E'(lo+) and E'(hi−): below the first λ sits at lo, above the second at hi. */
    final double slopeLo;
    final double slopeHi;
    /** E''(lo+): how fast the minimiser leaves lo as λ passes slopeLo; zero where a bridge starts at lo. */
    final double curvatureLo;

    ConvexEnvelope(SensitivityModel model, double lo, double hi) {
        this.model = model;
        this.lo = lo;
        this.hi = hi;
        double[] bridge = model.convexEnvelopeBridge(lo, hi);
        this.bridgeLo = bridge == null ? Double.NaN : bridge[0];
        this.bridgeHi = bridge == null ? Double.NaN : bridge[1];
        this.slope = hasBridge() ? (model.slowdown(bridgeHi) - model.slowdown(bridgeLo)) / (bridgeHi - bridgeLo) : Double.NaN;
        this.slopeLo = hasBridge() && bridgeLo <= lo ? slope : model.derivative(lo);
        this.slopeHi = hasBridge() && bridgeHi >= hi ? slope : model.derivative(hi);
        this.curvatureLo = hasBridge() && bridgeLo <= lo ? 0 : Math.max(0, model.secondDerivative(lo));
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
            return model.derivativeRoot(lambda, lo, hi);
        }
        if (lambda < slope) {
            return model.derivativeRoot(lambda, lo, bridgeLo);
        }
        if (lambda > slope) {
            return model.derivativeRoot(lambda, bridgeHi, hi);
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

}
