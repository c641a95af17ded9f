package io.saba.core.solve;

import java.util.Arrays;

/**
 * Eq. 2 weights by group of applications sharing a model, run-length encoded so the size is independent of how
 * many applications a group has: group g's applications take the values of its runs, each run's value for as many
 * applications as the run counts, in order. Usually a group is one run (identical convex terms split equally); a
 * model that is non-convex where the optimum lies can put some applications at one share and some at another.
 *
 * <p>The runs of all groups are stored in two flat arrays; the solver's usual answer, one run per group, is kept as
 * it comes, without an array per group (a controller solves thousands of ports per recomputation).
 */
public final class GroupSolution {
    /** The runs' values (fractions of the link) and application counts, group after group. */
    private final double[] values;
    private final int[] counts;
    /** Group g's runs are [firstRun[g], firstRun[g + 1]); null when every group is one run (group g is run g). */
    private final int[] firstRun;
    private final double objective;
    private final double lambda;

    private GroupSolution(double[] values, int[] counts, int[] firstRun, double objective, double lambda) {
        this.values = values;
        this.counts = counts;
        this.firstRun = firstRun;
        this.objective = objective;
        this.lambda = lambda;
    }

    /**
     * @param values    per group, the distinct weights (fractions of the link)
     * @param counts    per group, how many applications take each weight
     * @param objective Σ D_i(w_i) over all applications
     * @param lambda    the Lagrange multiplier of Σ w = C in the solver's relaxation (the marginal slowdown the
     *                  groups were balanced at), NaN when the solver did not compute one; given back to the solver
     *                  the next time the port's applications change, it starts the search next to the answer
     */
    public GroupSolution(double[][] values, int[][] counts, double objective, double lambda) {
        this(flatValues(values), flatCounts(counts), firstRuns(counts), objective, lambda);
    }

    /** A solution without a multiplier. */
    public GroupSolution(double[][] values, int[][] counts, double objective) {
        this(values, counts, objective, Double.NaN);
    }

    /** Group g's applications all take {@code values[g]}; the arrays are kept, not copied. */
    static GroupSolution onePerGroup(double[] values, int[] counts, double objective, double lambda) {
        return new GroupSolution(values, counts, null, objective, lambda);
    }

    /** Σ D_i(w_i) over all applications. */
    public double objective() {
        return objective;
    }

    /** The multiplier the solver balanced the groups at, NaN if it computed none (see the constructor). */
    public double lambda() {
        return lambda;
    }

    /** The number of groups. */
    public int groups() {
        return firstRun == null ? values.length : firstRun.length - 1;
    }

    /** The weight of the k-th application (0-based) of group g. */
    public double weight(int g, int k) {
        int left = k;
        for (int r = start(g); r < end(g); r++) {
            if (left < counts[r]) {
                return values[r];
            }
            left -= counts[r];
        }
        throw new IndexOutOfBoundsException("group " + g + " has no application " + k);
    }

    /** Σ of group g's weights. */
    public double total(int g) {
        double sum = 0;
        for (int r = start(g); r < end(g); r++) {
            sum += values[r] * counts[r];
        }
        return sum;
    }

    /** All of group g's weights, one per application. */
    public double[] expanded(int g) {
        int n = 0;
        for (int r = start(g); r < end(g); r++) {
            n += counts[r];
        }
        double[] out = new double[n];
        int at = 0;
        for (int r = start(g); r < end(g); r++) {
            Arrays.fill(out, at, at + counts[r], values[r]);
            at += counts[r];
        }
        return out;
    }

    private int start(int g) {
        return firstRun == null ? g : firstRun[g];
    }

    private int end(int g) {
        return firstRun == null ? g + 1 : firstRun[g + 1];
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("GroupSolution[");
        for (int g = 0; g < groups(); g++) {
            s.append(g == 0 ? "" : ", ").append(g).append(':');
            for (int r = start(g); r < end(g); r++) {
                s.append(' ').append(counts[r]).append('x').append(values[r]);
            }
        }
        return s.append("; objective=").append(objective).append(", lambda=").append(lambda).append(']').toString();
    }

    private static double[] flatValues(double[][] perGroup) {
        int n = 0;
        for (double[] runs : perGroup) {
            n += runs.length;
        }
        double[] flat = new double[n];
        int at = 0;
        for (double[] runs : perGroup) {
            System.arraycopy(runs, 0, flat, at, runs.length);
            at += runs.length;
        }
        return flat;
    }

    private static int[] flatCounts(int[][] perGroup) {
        int n = 0;
        for (int[] runs : perGroup) {
            n += runs.length;
        }
        int[] flat = new int[n];
        int at = 0;
        for (int[] runs : perGroup) {
            System.arraycopy(runs, 0, flat, at, runs.length);
            at += runs.length;
        }
        return flat;
    }

    private static int[] firstRuns(int[][] counts) {
        int[] first = new int[counts.length + 1];
        for (int g = 0; g < counts.length; g++) {
            first[g + 1] = first[g] + counts[g].length;
        }
        return first;
    }
}
