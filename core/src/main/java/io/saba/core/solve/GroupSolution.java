package io.saba.core.solve;

/**
 * Eq. 2 weights by group of applications sharing a model, run-length encoded so the size is independent of how
 * many applications a group has: group g's applications take {@code values[g][r]}, {@code counts[g][r]} of them
 * for each run r, in order. Usually a group is one run (identical convex terms split equally); a model that is
 * non-convex where the optimum lies can put some applications at one share and some at another.
 *
 * @param values    per group, the distinct weights (fractions of the link)
 * @param counts    per group, how many applications take each weight
 * @param objective Σ D_i(w_i) over all applications
 * @param lambda    the Lagrange multiplier of Σ w = C in the solver's relaxation (the marginal slowdown the
 *                  groups were balanced at), NaN when the solver did not compute one; given back to the solver
 *                  the next time the port's applications change, it starts the search next to the answer
 */
public record GroupSolution(double[][] values, int[][] counts, double objective, double lambda) {
    /** A solution without a multiplier. */
    public GroupSolution(double[][] values, int[][] counts, double objective) {
        this(values, counts, objective, Double.NaN);
    }

    /** The weight of the k-th application (0-based) of group g. */
    public double weight(int g, int k) {
        int left = k;
        for (int r = 0; r < counts[g].length; r++) {
            if (left < counts[g][r]) {
                return values[g][r];
            }
            left -= counts[g][r];
        }
        throw new IndexOutOfBoundsException("group " + g + " has no application " + k);
    }

    /** Σ of group g's weights. */
    public double total(int g) {
        double sum = 0;
        for (int r = 0; r < counts[g].length; r++) {
            sum += values[g][r] * counts[g][r];
        }
        return sum;
    }

    /** All of group g's weights, one per application. */
    public double[] expanded(int g) {
        int n = 0;
        for (int c : counts[g]) {
            n += c;
        }
        double[] out = new double[n];
        int at = 0;
        for (int r = 0; r < counts[g].length; r++) {
            for (int k = 0; k < counts[g][r]; k++) {
                out[at++] = values[g][r];
            }
        }
        return out;
    }
}
