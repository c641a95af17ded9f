package io.saba.core.model;

import java.util.List;
import java.util.TreeSet;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * Fits a sensitivity model to profiling samples by ordinary least squares (the paper's polynomial regression,
 * §4.1), with bandwidth as a fraction of the link.
 */
public final class ModelFitter {
    private ModelFitter() {
    }

    /**
     * @param samples measurements; repeated runs at one level are separate samples
     * @param degree  k, 1 ≤ k ≤ 3
     * @throws IllegalArgumentException naming the offending sample (1-based, as in a CSV without its header) or
     *                                  the shortfall of distinct bandwidth levels
     */
    public static FittedModel fit(List<Sample> samples, int degree) {
        if (degree < 1 || degree > SensitivityModel.MAX_DEGREE) {
            throw new IllegalArgumentException("degree must be 1 to " + SensitivityModel.MAX_DEGREE + ", got " + degree);
        }
        TreeSet<Double> levels = new TreeSet<>();
        for (int i = 0; i < samples.size(); i++) {
            String defect = samples.get(i).defect();
            if (defect != null) {
                throw new IllegalArgumentException("sample " + (i + 1) + " " + samples.get(i) + " " + defect);
            }
            levels.add(samples.get(i).bandwidthPercent());
        }
        if (levels.size() < degree + 1) {
            throw new IllegalArgumentException("a degree-" + degree + " model needs samples at " + (degree + 1)
                    + " or more distinct bandwidth levels, got " + levels.size() + " " + levels);
        }
        double[] y = new double[samples.size()];
        double[][] x = new double[samples.size()][degree];
        for (int i = 0; i < y.length; i++) {
            double b = samples.get(i).bandwidthFraction();
            y[i] = samples.get(i).slowdown();
            double p = 1;
            for (int j = 0; j < degree; j++) {
                p *= b;
                x[i][j] = p;
            }
        }
        double[] beta;
        double r2;
        if (y.length == degree + 1) {
            // Exactly determined: the polynomial interpolates; OLS in Commons Math wants spare observations.
            beta = interpolate(x, y, degree);
            r2 = 1.0;
        } else {
            OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
            ols.newSampleData(y, x);
            try {
                beta = ols.estimateRegressionParameters();
                r2 = constant(y) ? 1.0 : ols.calculateRSquared();
            } catch (SingularMatrixException e) {
                throw new IllegalArgumentException("samples do not determine a degree-" + degree + " model", e);
            }
        }
        return new FittedModel(SensitivityModel.of(beta), r2, samples);
    }

    private static boolean constant(double[] y) {
        for (double v : y) {
            if (v != y[0]) {
                return false;
            }
        }
        return true;
    }

    private static double[] interpolate(double[][] x, double[] y, int degree) {
        int n = y.length;
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            a[i][0] = 1;
            System.arraycopy(x[i], 0, a[i], 1, degree);
        }
        return new LUDecomposition(new Array2DRowRealMatrix(a)).getSolver().solve(new ArrayRealVector(y)).toArray();
    }
}
