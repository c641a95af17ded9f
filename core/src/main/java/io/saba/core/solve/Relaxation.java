package io.saba.core.solve;

import java.util.Arrays;

/**
 * The convex relaxation of Eq. 2 over a set of items: each model replaced by its convex envelope, solved exactly
 * by searching the Lagrange multiplier λ of Σ w = C. Every application of an item takes the item's value
 * {@code x[i]} (identical convex terms are best split equally). {@link #lowerBound} bounds the true optimum of
 * the same items from below.
 */
final class Relaxation {
    private final Items items;
    final double[] x;
    /** The multiplier the items were balanced at (NaN when every item is pinned to its bounds). */
    final double lambda;
    /** NaN until asked for: a port solved without branching never needs it. */
    private double lowerBound = Double.NaN;

    private Relaxation(Items items, double[] x, double lambda) {
        this.items = items;
        this.x = x;
        this.lambda = lambda;
    }

    /** Σ count·E(x): a lower bound on the optimum of the same items. */
    double lowerBound() {
        if (Double.isNaN(lowerBound)) {
            double bound = 0;
            for (int i = 0; i < x.length; i++) {
                bound += items.counts[i] * items.envelopes[i].value(x[i]);
            }
            lowerBound = bound;
        }
        return lowerBound;
    }

    /** @return the relaxed optimum, or null if the items' bounds cannot meet the capacity */
    static Relaxation solve(Items items, double capacity) {
        return solve(items, capacity, Double.NaN);
    }

    /**
     * @param lambdaHint where to start the search on λ, typically the multiplier of the same port before one
     *                   application arrived or left (NaN or outside the bracket: start at equal shares); the
     *                   stopping rule is the same either way, so the hint changes the steps, not the answer's
     *                   accuracy
     * @return the relaxed optimum, or null if the items' bounds cannot meet the capacity
     */
    static Relaxation solve(Items items, double capacity, double lambdaHint) {
        ConvexEnvelope[] envelopes = items.envelopes;
        int[] counts = items.counts;
        double minTotal = 0;
        double maxTotal = 0;
        double minSlope = Double.POSITIVE_INFINITY;
        double maxSlope = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < counts.length; i++) {
            ConvexEnvelope e = envelopes[i];
            minTotal += counts[i] * e.lo;
            maxTotal += counts[i] * e.hi;
            minSlope = Math.min(minSlope, e.slopeLo);
            maxSlope = Math.max(maxSlope, e.slopeHi);
        }
        double eps = 1e-12 * capacity;
        if (minTotal > capacity + eps || maxTotal < capacity - eps) {
            return null;
        }
        double[] x = new double[counts.length];
        if (maxTotal - minTotal <= eps) { // every item pinned
            for (int i = 0; i < x.length; i++) {
                x[i] = envelopes[i].lo;
            }
            return new Relaxation(items, x, Double.NaN);
        }
        double a = minSlope - 1 - Math.abs(minSlope);
        double b = maxSlope + 1 + Math.abs(maxSlope);
        double lambda = lambdaHint > a && lambdaHint < b ? lambdaHint
                : items.isRoot() ? firstGuess(items, capacity, a, b) : meanSlope(items, capacity, a, b);
        double previousResidual = Double.POSITIVE_INFINITY;
        double[] kinks = null; // sorted once, the first time λ has to be searched over them
        for (int iter = 0; iter < 400; iter++) {
            double total = 0;
            double derivative = 0;
            for (int i = 0; i < x.length; i++) {
                ConvexEnvelope e = envelopes[i];
                x[i] = e.argminShifted(lambda, false);
                total += counts[i] * x[i];
                double curvature = e.curvature(x[i]);
                if (curvature > 0) {
                    derivative += counts[i] / curvature;
                }
            }
            if (Math.abs(total - capacity) <= 1e-14 * capacity) {
                return new Relaxation(items, x, lambda);
            }
            if (total < capacity) {
                a = lambda;
            } else {
                b = lambda;
            }
            // Newton on λ converges in a few steps where the total is smooth, but can overshoot back and forth
            // around a kink; bisect whenever it fails to halve the residual.
            double residual = Math.abs(total - capacity);
            double next = derivative > 0 && residual < 0.5 * previousResidual
                    ? lambda + (capacity - total) / derivative : Double.NaN;
            previousResidual = residual;
            if (!(next > a && next < b)) {
                next = 0.5 * (a + b);
                if (derivative == 0) {
                    // No application sits on a curved stretch (linear models, k = 1, always): the total is flat
                    // here and moves only where a minimiser jumps, at a kink of its envelope. Bisecting the reals
                    // would take ~50 halvings to close in on that jump; bisect over the kinks instead, and once
                    // none is left inside (a, b), interpolate across the jump at its end.
                    if (kinks == null) {
                        kinks = sortedKinks(items);
                    }
                    double kink = middleKink(kinks, a, b);
                    if (!Double.isNaN(kink)) {
                        next = kink;
                    } else {
                        double flatTotal = flatTotal(items, next);
                        if (!Double.isNaN(flatTotal)) {
                            return flatTotal < capacity ? interpolate(items, next, b, capacity)
                                    : interpolate(items, a, next, capacity);
                        }
                    }
                }
            }
            if (next == a || next == b || b - a <= 1e-15 * Math.max(1, Math.abs(lambda))) {
                break; // the bracket cannot shrink further: the total jumps across the capacity at λ
            }
            lambda = next;
        }
        return interpolate(items, a, b, capacity);
    }

    /**
     * The envelopes' kinks in increasing order: where E'(lo+), E'(hi−) or a bridge's slope lie, the only places a
     * minimiser of E(x) − λx jumps or starts to move. Insertion sort: a port has a few dozen at most.
     */
    private static double[] sortedKinks(Items items) {
        double[] kinks = new double[3 * items.size()];
        int n = 0;
        for (ConvexEnvelope e : items.envelopes) {
            n = insert(kinks, n, e.slopeLo);
            n = insert(kinks, n, e.slopeHi);
            n = insert(kinks, n, e.slope); // NaN without a bridge: left out
        }
        return Arrays.copyOf(kinks, n);
    }

    private static int insert(double[] sorted, int n, double k) {
        if (Double.isNaN(k)) {
            return n;
        }
        int at = n;
        while (at > 0 && sorted[at - 1] > k) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = k;
        return n + 1;
    }

    /** The middle one of the sorted kinks strictly inside (a, b), NaN if none. */
    private static double middleKink(double[] kinks, double a, double b) {
        int from = 0;
        while (from < kinks.length && !(kinks[from] > a)) {
            from++;
        }
        int to = from; // exclusive
        while (to < kinks.length && kinks[to] < b) {
            to++;
        }
        return to == from ? Double.NaN : kinks[from + (to - from) / 2];
    }

    /**
     * The total Σ count·x at λ if no item is on a curved stretch there (every x at a bound or a bridge end, so
     * with no kink nearby it stays put as λ moves), NaN otherwise.
     */
    private static double flatTotal(Items items, double lambda) {
        double total = 0;
        for (int i = 0; i < items.size(); i++) {
            ConvexEnvelope e = items.envelopes[i];
            double x = e.argminShifted(lambda, false);
            if (e.curvature(x) > 0) {
                return Double.NaN;
            }
            total += items.counts[i] * x;
        }
        return total;
    }

    /**
     * λ where the items' minimisers, each replaced by its tangent at lo (x = lo + (λ − E'(lo+)) / E''(lo+) once λ
     * passes E'(lo+), lo before), add up to the capacity: a water-filling over the items in order of E'(lo+).
     * On a busy port most items stay at the floor and the others move little from it, so the tangents are close
     * and Newton starts within a few per cent of the answer; the mean marginal slowdown at equal shares, used
     * before, overshot the capacity ten-fold and cost three more steps. Falls back to that mean where no item is
     * curved at lo (linear models) or the tangents miss (a, b).
     *
     * <p>Only at the root. The branch and bound's nodes keep starting from the mean: a tree that reaches the node
     * limit (dozens of applications of one non-convex model on a bridge) returns the best point found by then, which
     * depends on the nodes' last bits, and the 800 reference ports of {@code ObjectiveUnchangedTest} hold those
     * trees as they were.
     */
    private static double firstGuess(Items items, double capacity, double a, double b) {
        ConvexEnvelope[] envelopes = items.envelopes;
        int[] counts = items.counts;
        int[] order = byLowerSlope(envelopes);
        double floorTotal = 0;
        for (int i = 0; i < counts.length; i++) {
            floorTotal += counts[i] * envelopes[i].lo;
        }
        double weighted = 0; // Σ count·E'(lo+)/E''(lo+) over the items that left lo
        double weights = 0; // Σ count/E''(lo+)
        double guess = Double.NaN;
        for (int k = 0; k < order.length; k++) {
            ConvexEnvelope e = envelopes[order[k]];
            if (e.curvatureLo > 0) {
                weighted += counts[order[k]] * e.slopeLo / e.curvatureLo;
                weights += counts[order[k]] / e.curvatureLo;
                guess = (capacity - floorTotal + weighted) / weights;
            }
            if (!Double.isNaN(guess) && (k + 1 == order.length || guess <= envelopes[order[k + 1]].slopeLo)) {
                break; // the next item stays at lo
            }
        }
        return guess > a && guess < b ? guess : meanSlope(items, capacity, a, b);
    }

    /** Item indices in increasing order of E'(lo+) (insertion sort: a port has a handful of groups). */
    private static int[] byLowerSlope(ConvexEnvelope[] envelopes) {
        int[] order = new int[envelopes.length];
        for (int i = 0; i < order.length; i++) {
            int at = i;
            while (at > 0 && envelopes[order[at - 1]].slopeLo > envelopes[i].slopeLo) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = i;
        }
        return order;
    }

    /** λ at equal shares: the mean marginal slowdown where every application gets C / n. */
    private static double meanSlope(Items items, double capacity, double a, double b) {
        int n = 0;
        double sum = 0;
        for (int count : items.counts) {
            n += count;
        }
        double share = capacity / n;
        for (int i = 0; i < items.size(); i++) {
            ConvexEnvelope e = items.envelopes[i];
            double x = Math.min(e.hi, Math.max(e.lo, share));
            sum += items.counts[i] * e.model.derivative(x);
        }
        double guess = sum / n;
        return guess > a && guess < b ? guess : 0.5 * (a + b);
    }

    /** Between λ = a (total below C) and λ = b (total at or above C), move along the segment that hits C. */
    private static Relaxation interpolate(Items items, double a, double b, double capacity) {
        double[] xa = new double[items.size()];
        double[] xb = new double[items.size()];
        double ta = 0;
        double tb = 0;
        for (int i = 0; i < xa.length; i++) {
            ConvexEnvelope e = items.envelopes[i];
            xa[i] = e.argminShifted(a, false);
            xb[i] = e.argminShifted(b, true);
            ta += items.counts[i] * xa[i];
            tb += items.counts[i] * xb[i];
        }
        double theta = tb > ta ? Math.min(1, Math.max(0, (capacity - ta) / (tb - ta))) : 0;
        for (int i = 0; i < xa.length; i++) {
            xa[i] += theta * (xb[i] - xa[i]);
        }
        return new Relaxation(items, xa, 0.5 * (a + b));
    }
}
