package io.saba.core.model;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DecompositionSolver;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.SingularMatrixException;

/**
 * Least squares min ‖Xβ − y‖ with some coefficients constrained to be ≥ 0, solved exactly by trying every set of
 * constrained coefficients that may be positive. At the optimum the positive ones satisfy the unconstrained normal
 * equations of their own columns (KKT), so the optimum is the best of these restricted fits whose coefficients come
 * out non-negative. Exact, and at most 2³ = 8 small fits for Saba's models; an iterative solver (Lawson–Hanson)
 * would only pay off with many more constrained coefficients.
 */
final class SignConstrainedLeastSquares {
    private static final int MAX_CONSTRAINED = 6;

    private SignConstrainedLeastSquares() {
    }

    /**
     * @param x           rows = observations, columns = coefficients
     * @param y           observations
     * @param nonNegative per column, true if its coefficient must be ≥ 0
     * @return the coefficients, or null if no feasible restricted fit has full column rank
     */
    static double[] solve(double[][] x, double[] y, boolean[] nonNegative) {
        int p = nonNegative.length;
        int constrained = 0;
        for (boolean c : nonNegative) {
            constrained += c ? 1 : 0;
        }
        if (constrained > MAX_CONSTRAINED) {
            throw new IllegalArgumentException("enumeration is for a few constrained coefficients, got " + constrained);
        }
        int[] constrainedColumns = new int[constrained];
        for (int j = 0, k = 0; j < p; j++) {
            if (nonNegative[j]) {
                constrainedColumns[k++] = j;
            }
        }
        double[] best = null;
        double bestSse = Double.POSITIVE_INFINITY;
        for (int mask = 0; mask < (1 << constrained); mask++) {
            boolean[] active = new boolean[p];
            for (int j = 0; j < p; j++) {
                active[j] = !nonNegative[j];
            }
            for (int k = 0; k < constrained; k++) {
                active[constrainedColumns[k]] = (mask & (1 << k)) != 0;
            }
            double[] beta = restricted(x, y, active);
            if (beta == null || !feasible(beta, nonNegative)) {
                continue;
            }
            double sse = sse(x, y, beta);
            if (sse < bestSse) {
                bestSse = sse;
                best = beta;
            }
        }
        return best;
    }

    /** Ordinary least squares on the active columns; the others are 0. Null if those columns are rank deficient. */
    private static double[] restricted(double[][] x, double[] y, boolean[] active) {
        int cols = 0;
        for (boolean a : active) {
            cols += a ? 1 : 0;
        }
        double[] beta = new double[active.length];
        if (cols == 0) {
            return beta;
        }
        if (cols > y.length) {
            return null;
        }
        double[][] sub = new double[y.length][cols];
        for (int i = 0; i < y.length; i++) {
            for (int j = 0, k = 0; j < active.length; j++) {
                if (active[j]) {
                    sub[i][k++] = x[i][j];
                }
            }
        }
        DecompositionSolver qr = new QRDecomposition(new Array2DRowRealMatrix(sub, false), 1e-12).getSolver();
        double[] solved;
        try {
            solved = qr.solve(new ArrayRealVector(y, false)).toArray();
        } catch (SingularMatrixException e) {
            return null;
        }
        for (int j = 0, k = 0; j < active.length; j++) {
            if (active[j]) {
                beta[j] = solved[k++];
            }
        }
        return beta;
    }

    private static boolean feasible(double[] beta, boolean[] nonNegative) {
        for (int j = 0; j < beta.length; j++) {
            if (nonNegative[j] && beta[j] < 0) {
                return false;
            }
        }
        return true;
    }

    static double sse(double[][] x, double[] y, double[] beta) {
        double sse = 0;
        for (int i = 0; i < y.length; i++) {
            double fit = 0;
            for (int j = 0; j < beta.length; j++) {
                fit += x[i][j] * beta[j];
            }
            sse += (y[i] - fit) * (y[i] - fit);
        }
        return sse;
    }
}
