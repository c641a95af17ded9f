package io.saba.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

/**
 * Fits a sensitivity model of one {@link ModelFamily} to profiling samples, with bandwidth as a fraction of the link,
 * and scores it by R² on its samples and by leave-one-level-out cross-validation.
 *
 * <p>The inverse family is fitted with a and c free but non-negative. D(1) = 1 holds by definition only for the
 * median of the baseline runs, which are as noisy as any other level (a testbed PageRank profile has 19 s and 38 s
 * among its three runs at 100 %); the samples at 100 % anchor the curve like any other level instead of being
 * forced through, so one noisy baseline cannot tilt the whole fit.
 */
public final class ModelFitter {
    private ModelFitter() {
    }

    /**
     * The paper's polynomial regression (§4.1): {@code fit(ModelFamily.POLY, degree, samples)}.
     *
     * @param samples measurements; repeated runs at one level are separate samples
     * @param degree  k, 1 ≤ k ≤ 3
     * @throws IllegalArgumentException naming the offending sample (1-based, as in a CSV without its header) or
     *                                  the shortfall of distinct bandwidth levels
     */
    public static FittedModel fit(List<Sample> samples, int degree) {
        return fit(ModelFamily.POLY, degree, samples);
    }

    /**
     * @param degree k for the polynomial families (1 ≤ k ≤ 3); ignored for the inverse family
     * @throws IllegalArgumentException as {@link #fit(List, int)}
     */
    public static FittedModel fit(ModelFamily family, int degree, List<Sample> samples) {
        if (family.polynomial() && (degree < 1 || degree > SensitivityModel.MAX_DEGREE)) {
            throw new IllegalArgumentException("degree must be 1 to " + SensitivityModel.MAX_DEGREE + ", got " + degree);
        }
        TreeSet<Double> levels = levels(samples);
        int needed = family.polynomial() ? degree + 1 : 2;
        if (levels.size() < needed) {
            throw new IllegalArgumentException("a " + (family.polynomial() ? "degree-" + degree : family.id())
                    + " model needs samples at " + needed + " or more distinct bandwidth levels, got " + levels.size()
                    + " " + levels);
        }
        double lowest = levels.first() / 100.0;
        SensitivityModel model = estimate(family, degree, samples, lowest);
        if (model == null) {
            throw new IllegalArgumentException("samples do not determine a " + family.id() + " model of degree " + degree);
        }
        return new FittedModel(family, model, r2(model, samples), crossValidatedRmse(family, degree, samples),
                model.isNonIncreasingOn(lowest, 1.0), samples);
    }

    /**
     * Leave-one-level-out cross-validation: for each profiled level, fit on the other levels and predict the held-out
     * samples; the root mean square of all those prediction errors. Holding out whole levels (not single runs) asks
     * what a model predicts at a share it was not fitted at — which is what Eq. 2 asks of it; holding out the lowest
     * level measures extrapolation towards the floor, where cubics went wrong. Monotone polynomials keep the full
     * profile's interval for their constraint in every fold.
     *
     * @return NaN when a fold would have too few levels for the family and degree
     */
    public static double crossValidatedRmse(ModelFamily family, int degree, List<Sample> samples) {
        TreeSet<Double> levels = levels(samples);
        int needed = family.polynomial() ? degree + 1 : 2;
        if (levels.size() - 1 < needed) {
            return Double.NaN;
        }
        double lowest = levels.first() / 100.0;
        double sum = 0;
        for (double held : levels) {
            List<Sample> train = new ArrayList<>();
            for (Sample s : samples) {
                if (s.bandwidthPercent() != held) {
                    train.add(s);
                }
            }
            SensitivityModel m = estimate(family, degree, train, lowest);
            if (m == null) {
                return Double.NaN;
            }
            for (Sample s : samples) {
                if (s.bandwidthPercent() == held) {
                    double e = m.slowdown(s.bandwidthFraction()) - s.slowdown();
                    sum += e * e;
                }
            }
        }
        return Math.sqrt(sum / samples.size());
    }

    /** Distinct levels in %, after checking every sample. */
    static TreeSet<Double> levels(List<Sample> samples) {
        TreeSet<Double> levels = new TreeSet<>();
        for (int i = 0; i < samples.size(); i++) {
            String defect = samples.get(i).defect();
            if (defect != null) {
                throw new IllegalArgumentException("sample " + (i + 1) + " " + samples.get(i) + " " + defect);
            }
            levels.add(samples.get(i).bandwidthPercent());
        }
        return levels;
    }

    /** The least-squares model of the family; null if the samples do not determine it. */
    private static SensitivityModel estimate(ModelFamily family, int degree, List<Sample> samples, double lowest) {
        return switch (family) {
            case POLY -> polynomial(samples, degree);
            case MONOTONE_POLY -> monotonePolynomial(samples, degree, lowest);
            case INVERSE -> inverse(samples);
        };
    }

    private static SensitivityModel polynomial(List<Sample> samples, int degree) {
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
        try {
            if (y.length == degree + 1) {
                // Exactly determined: the polynomial interpolates; OLS in Commons Math wants spare observations.
                return SensitivityModel.of(interpolate(x, y, degree));
            }
            OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
            ols.newSampleData(y, x);
            return SensitivityModel.of(ols.estimateRegressionParameters());
        } catch (SingularMatrixException e) {
            return null;
        }
    }

    /**
     * Least squares over polynomials whose Bernstein coefficients β_0 ≥ … ≥ β_k on [lowest, 1] do not increase.
     * Written as D = β_k + Σ_j δ_j·S_j with δ_j = β_j − β_{j+1} ≥ 0 and S_j = B_0 + … + B_j (each falling from 1 to
     * 0), it is least squares with a free intercept and non-negative δ. The condition is sufficient for D' ≤ 0 on
     * the interval (exactly necessary too up to degree 2), so every fit is non-increasing there.
     */
    private static SensitivityModel monotonePolynomial(List<Sample> samples, int degree, double lowest) {
        double[][] cumulative = cumulativeBernstein(degree, lowest);
        double[][] x = new double[samples.size()][degree + 1];
        double[] y = new double[samples.size()];
        boolean[] nonNegative = new boolean[degree + 1];
        for (int i = 0; i < y.length; i++) {
            double b = samples.get(i).bandwidthFraction();
            y[i] = samples.get(i).slowdown();
            x[i][0] = 1;
            for (int j = 0; j < degree; j++) {
                x[i][j + 1] = Polynomials.evaluate(cumulative[j], b);
            }
        }
        for (int j = 1; j <= degree; j++) {
            nonNegative[j] = true;
        }
        double[] beta = SignConstrainedLeastSquares.solve(x, y, nonNegative);
        if (beta == null) {
            return null;
        }
        double[] c = new double[degree + 1];
        c[0] = beta[0];
        for (int j = 0; j < degree; j++) {
            for (int i = 0; i <= degree; i++) {
                c[i] += beta[j + 1] * cumulative[j][i];
            }
        }
        return SensitivityModel.of(c);
    }

    /** S_j(b) = Σ_{i ≤ j} C(k, i) t^i (1 − t)^(k − i) with t = (b − lo) / (1 − lo), as power-basis coefficients in b. */
    private static double[][] cumulativeBernstein(int k, double lo) {
        double scale = 1 / (1 - lo);
        double[] t = {-lo * scale, scale};
        double[] oneMinusT = {1 + lo * scale, -scale};
        double[][] s = new double[k][];
        double[] sum = new double[k + 1];
        for (int j = 0; j < k; j++) {
            double[] basis = {binomial(k, j)};
            for (int m = 0; m < j; m++) {
                basis = Polynomials.multiply(basis, t);
            }
            for (int m = 0; m < k - j; m++) {
                basis = Polynomials.multiply(basis, oneMinusT);
            }
            for (int i = 0; i < basis.length; i++) {
                sum[i] += basis[i];
            }
            s[j] = sum.clone();
        }
        return s;
    }

    private static double binomial(int n, int k) {
        double v = 1;
        for (int i = 1; i <= k; i++) {
            v = v * (n - k + i) / i;
        }
        return v;
    }

    /** D(b) = a + c/b by least squares with a, c ≥ 0. */
    private static SensitivityModel inverse(List<Sample> samples) {
        double[][] x = new double[samples.size()][2];
        double[] y = new double[samples.size()];
        for (int i = 0; i < y.length; i++) {
            x[i][0] = 1;
            x[i][1] = 1 / samples.get(i).bandwidthFraction();
            y[i] = samples.get(i).slowdown();
        }
        double[] beta = SignConstrainedLeastSquares.solve(x, y, new boolean[] {true, true});
        return beta == null ? null : SensitivityModel.inverse(beta[0], beta[1]);
    }

    /** 1 − SSE / SST on the samples; 1 when the samples are all equal (nothing to explain). */
    static double r2(SensitivityModel model, List<Sample> samples) {
        double mean = 0;
        for (Sample s : samples) {
            mean += s.slowdown();
        }
        mean /= samples.size();
        double sse = 0;
        double sst = 0;
        for (Sample s : samples) {
            double e = s.slowdown() - model.slowdown(s.bandwidthFraction());
            sse += e * e;
            sst += (s.slowdown() - mean) * (s.slowdown() - mean);
        }
        return sst == 0 ? 1.0 : 1 - sse / sst;
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
