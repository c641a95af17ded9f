package io.saba.core.corun;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Chooses one port's weights by minimising the co-run predictor's total slowdown ({@link CorunPredictor}). The
 * objective is a replay, not a closed form, and not convex (jobs ending change who shares what), so the search is
 * exhaustive on a grid for two applications, a grid over the simplex refined by local search for three or four,
 * and for more a local search (moving weight between pairs, with shrinking steps) from the three most promising
 * of its starts (each application first, and the caller's own, such as the Eq. 2 solution); the equal split is
 * kept if nothing beats it.
 */
public final class CorunAllocator {
    private static final double GRID = 0.0125;
    /** Simplex grid step for three or four applications (171 or 1,140 points before the floor). */
    private static final double SIMPLEX_GRID = 0.05;
    private static final int GRID_REFINED = 3;
    private static final double[] STEPS = {0.2, 0.1, 0.05, 0.025, 0.0125};

    private CorunAllocator() {
    }

    /**
     * A port's choice.
     *
     * @param weights        shares summing to the capacity, each at least the floor
     * @param predictedTotal predicted sum of slowdowns under {@code weights}
     * @param equalTotal     the same under the equal split (the baseline a plan must beat)
     */
    public record Decision(double[] weights, double predictedTotal, double equalTotal) {
        /** Predicted gain over the equal split, as a fraction of the equal split's total. */
        public double gainOverEqual() {
            return equalTotal <= 0 ? 0 : (equalTotal - predictedTotal) / equalTotal;
        }
    }

    /**
     * @param apps     the applications on the port
     * @param capacity the share of the link the weights divide (C_Saba)
     * @param floor    the least share any application gets
     * @param offsets  where each application is in its run (seconds of its alone run), or null for all at 0
     * @param starts   extra starting points (weights summing to {@code capacity}), e.g. Eq. 2's solution
     */
    public static Decision choose(List<CorunProfile> apps, double capacity, double floor, double[] offsets,
                                  List<double[]> starts) {
        return choose(apps, capacity, floor, offsets, starts, true);
    }

    /**
     * As above; with {@code prune} a candidate's replay stops once it cannot beat what it is compared with
     * ({@link CorunPredictor#total(List, double[], double[], double)}), which decides the same, bit for bit, in
     * fewer replay steps. Without, every replay runs to its end (what a test compares against).
     */
    static Decision choose(List<CorunProfile> apps, double capacity, double floor, double[] offsets,
                           List<double[]> starts, boolean prune) {
        int n = apps.size();
        if (n == 0) {
            return new Decision(new double[0], 0, 0);
        }
        double f = Math.min(floor / capacity, 1.0 / n); // the floor as a fraction of the capacity
        double[] equal = new double[n];
        Arrays.fill(equal, 1.0 / n);
        double equalTotal = CorunPredictor.total(apps, equal, offsets);
        if (n == 1) {
            return new Decision(new double[] {capacity}, equalTotal, equalTotal);
        }
        double[] best = equal;
        double bestTotal = equalTotal;
        List<double[]> candidates = new ArrayList<>();
        if (n == 2) {
            for (double x = f; x <= 1 - f + 1e-12; x += GRID) {
                candidates.add(new double[] {x, 1 - x});
            }
        } else if (n <= 4) {
            candidates.addAll(bestOfSimplexGrid(apps, n, f, offsets, prune));
        } else {
            for (int i = 0; i < n; i++) {
                double[] first = new double[n];
                Arrays.fill(first, f);
                first[i] = 1 - (n - 1) * f;
                candidates.add(first);
            }
        }
        for (double[] s : starts == null ? List.<double[]>of() : starts) {
            candidates.add(normalised(s, f));
        }
        if (n > 4) {
            // a local search costs n(n-1) replays a move: refine only the most promising starts
            candidates = bestOf(apps, candidates, offsets, prune);
        }
        for (double[] c : candidates) {
            double limit = bestTotal - 1e-12;
            Point x = n == 2 ? new Point(c, total(apps, c, offsets, prune ? limit : Double.POSITIVE_INFINITY))
                    : improve(apps, c, f, offsets, prune);
            if (x.total() < limit) {
                best = x.weights();
                bestTotal = x.total();
            }
        }
        if (n > 2 && best == equal) {
            Point x = improve(apps, equal, f, offsets, prune);
            best = x.weights();
            bestTotal = x.total();
        }
        double[] w = best.clone();
        for (int i = 0; i < n; i++) {
            w[i] *= capacity;
        }
        return new Decision(w, bestTotal, equalTotal);
    }

    /** Weights (fractions of the capacity) and their predicted total. */
    private record Point(double[] weights, double total) {
    }

    /** The predicted total, exact below {@code limit}, at least {@code limit} otherwise. */
    private static double total(List<CorunProfile> apps, double[] x, double[] offsets, double limit) {
        return CorunPredictor.total(apps, x, offsets, limit);
    }

    /**
     * The {@link #GRID_REFINED} points with the lowest predicted totals, in that order (ties: the earlier point
     * first). With {@code prune}, a point's replay stops once it cannot beat the {@link #GRID_REFINED}-th best of
     * the points before it: such a point ranks behind those, whatever its exact total.
     */
    private static List<double[]> bestOf(List<CorunProfile> apps, List<double[]> points, double[] offsets,
                                         boolean prune) {
        // each point's total once: a comparator that predicts would replay every point about 2·log2(points) times
        double[] totals = new double[points.size()];
        Integer[] order = new Integer[points.size()];
        double[] lowest = new double[GRID_REFINED]; // the lowest totals so far, ascending
        Arrays.fill(lowest, Double.POSITIVE_INFINITY);
        for (int i = 0; i < totals.length; i++) {
            totals[i] = total(apps, points.get(i), offsets, prune ? lowest[GRID_REFINED - 1]
                    : Double.POSITIVE_INFINITY);
            order[i] = i;
            for (int k = GRID_REFINED - 1; k >= 0 && totals[i] < lowest[k]; k--) {
                if (k + 1 < GRID_REFINED) {
                    lowest[k + 1] = lowest[k];
                }
                lowest[k] = totals[i];
            }
        }
        Arrays.sort(order, java.util.Comparator.comparingDouble(i -> totals[i]));
        List<double[]> best = new ArrayList<>();
        for (int i = 0; i < Math.min(GRID_REFINED, order.length); i++) {
            best.add(points.get(order[i]));
        }
        return best;
    }

    /** The {@link #GRID_REFINED} best points of a grid over the simplex (each coordinate ≥ f). */
    private static List<double[]> bestOfSimplexGrid(List<CorunProfile> apps, int n, double f, double[] offsets,
                                                    boolean prune) {
        List<double[]> points = new ArrayList<>();
        int units = (int) Math.round(1 / SIMPLEX_GRID);
        compositions(new int[n], 0, units, points, f);
        return bestOf(apps, points, offsets, prune);
    }

    private static void compositions(int[] parts, int i, int left, List<double[]> out, double f) {
        if (i == parts.length - 1) {
            parts[i] = left;
            double[] x = new double[parts.length];
            double free = 1 - parts.length * f; // what is left to divide once everyone has the floor
            for (int k = 0; k < parts.length; k++) {
                x[k] = f + parts[k] * SIMPLEX_GRID * free;
            }
            out.add(x);
            return;
        }
        for (int p = 0; p <= left; p++) {
            parts[i] = p;
            compositions(parts, i + 1, left - p, out, f);
        }
    }

    /**
     * Local search: move weight while that lowers the total. Up to four applications a move is between two of them
     * (n(n-1) candidates); beyond, one application gains or gives {@code step}, the others sharing the difference in
     * proportion to what they hold above the floor (2n candidates: a replay costs about n² steps, so pairs would make
     * a search of 16 applications ~8x dearer). With {@code prune}, a move's replay stops once it cannot beat the
     * best move so far; it would not have been taken.
     */
    private static Point improve(List<CorunProfile> apps, double[] start, double f, double[] offsets,
                                 boolean prune) {
        double[] x = start.clone();
        double cur = CorunPredictor.total(apps, x, offsets);
        for (double step : STEPS) {
            boolean moved = true;
            while (moved) {
                moved = false;
                double[] bestX = null;
                double bestT = cur;
                for (double[] y : x.length <= 4 ? pairMoves(x, step, f) : oneAgainstAll(x, step, f)) {
                    double limit = bestT - 1e-9;
                    double t = total(apps, y, offsets, prune ? limit : Double.POSITIVE_INFINITY);
                    if (t < limit) {
                        bestT = t;
                        bestX = y;
                    }
                }
                if (bestX != null) {
                    x = bestX;
                    cur = bestT;
                    moved = true;
                }
            }
        }
        return new Point(x, cur);
    }

    /** Every move of {@code step} from one application to another that keeps the floor. */
    private static List<double[]> pairMoves(double[] x, double step, double f) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < x.length; j++) {
                if (i == j || x[j] - step < f - 1e-12) {
                    continue;
                }
                double[] y = x.clone();
                y[i] += step;
                y[j] -= step;
                out.add(y);
            }
        }
        return out;
    }

    /** Each application gaining, then giving, {@code step}, the rest in proportion to their weight above the floor. */
    private static List<double[]> oneAgainstAll(double[] x, double step, double f) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            double othersAbove = 0;
            for (int j = 0; j < x.length; j++) {
                othersAbove += j == i ? 0 : x[j] - f;
            }
            if (othersAbove >= step - 1e-12) { // i gains: the others give in proportion to what they can
                double[] y = x.clone();
                y[i] += step;
                for (int j = 0; j < x.length; j++) {
                    y[j] -= j == i ? 0 : step * (x[j] - f) / othersAbove;
                }
                out.add(y);
            }
            if (x[i] - step >= f - 1e-12) { // i gives: the others gain in proportion to what they hold above
                double[] y = x.clone();
                y[i] -= step;
                for (int j = 0; j < x.length; j++) {
                    y[j] += j == i ? 0 : othersAbove > 0 ? step * (x[j] - f) / othersAbove : step / (x.length - 1);
                }
                out.add(y);
            }
        }
        return out;
    }

    /** A caller's weights as fractions summing to 1, each at least {@code f}. */
    private static double[] normalised(double[] w, double f) {
        double sum = Arrays.stream(w).map(v -> Math.max(v, 0)).sum();
        double[] x = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            x[i] = sum > 0 ? Math.max(w[i], 0) / sum : 1.0 / w.length;
        }
        // lift what is under the floor, taking it proportionally from the rest
        double lifted = 0;
        double rest = 0;
        for (double v : x) {
            if (v < f) {
                lifted += f - v;
            } else {
                rest += v - f;
            }
        }
        for (int i = 0; i < x.length; i++) {
            x[i] = x[i] < f ? f : f + (x[i] - f) * (rest > 0 ? (rest - lifted) / rest : 0);
        }
        return x;
    }
}
