package io.saba.bench;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import java.util.Arrays;
import java.util.List;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.vector.constrained.LagrangeSolution;
import org.hipparchus.optim.nonlinear.vector.constrained.LinearEqualityConstraint;
import org.hipparchus.optim.nonlinear.vector.constrained.LinearInequalityConstraint;
import org.hipparchus.optim.nonlinear.vector.constrained.SQPOptimizerS;
import org.hipparchus.optim.nonlinear.vector.constrained.TwiceDifferentiableFunction;

/**
 * Eq. 2 by a generic sequential quadratic programming optimiser (Hipparchus' {@code SQPOptimizerS}), standing in
 * for the SLSQP (NLopt) solver the paper's controller used. A local method: it starts from equal shares and stops
 * at the first KKT point it reaches, so on non-convex models it can end worse than the global optimum. It uses
 * {@link MinSlowdownSolver#floorFor the same floor rule}, so both solve the same problem.
 * For benchmarks only.
 */
public final class SqpPortSolver implements PortSolver {
    private final double floor;

    public SqpPortSolver(double floor) {
        this.floor = floor;
    }

    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        int n = models.size();
        if (n == 0) {
            return new PortSolution(new double[0], 0);
        }
        if (n == 1) {
            return evaluate(models, new double[] {capacity});
        }
        double floor = MinSlowdownSolver.floorFor(this.floor, n, capacity);
        double[][] ones = new double[1][n];
        Arrays.fill(ones[0], 1.0);
        double[][] identity = new double[n][n];
        double[] floors = new double[n];
        for (int i = 0; i < n; i++) {
            identity[i][i] = 1.0;
            floors[i] = floor;
        }
        double[] start = new double[n];
        Arrays.fill(start, capacity / n);
        SQPOptimizerS sqp = new SQPOptimizerS();
        LagrangeSolution s = sqp.optimize(
                new ObjectiveFunction(new Objective(models)),
                new InitialGuess(start),
                new MaxIter(500),
                new LinearEqualityConstraint(ones, new double[] {capacity}),
                new LinearInequalityConstraint(identity, floors));
        double[] w = s.getX().toArray();
        // Project onto the feasible set so objectives compare fairly (SQP meets constraints only to a tolerance).
        double sum = 0;
        double slack = 0;
        for (int i = 0; i < n; i++) {
            w[i] = Math.max(floor, w[i]);
            sum += w[i];
            slack += w[i] - floor;
        }
        double scale = slack > 0 ? (capacity - n * floor) / slack : 0;
        for (int i = 0; i < n; i++) {
            w[i] = floor + (w[i] - floor) * scale;
        }
        return evaluate(models, w);
    }

    private static PortSolution evaluate(List<SensitivityModel> models, double[] w) {
        double objective = 0;
        for (int i = 0; i < w.length; i++) {
            objective += models.get(i).slowdown(w[i]);
        }
        return new PortSolution(w, objective);
    }

    /** Σ D_i(w_i) with its gradient and (diagonal) Hessian. */
    private static final class Objective extends TwiceDifferentiableFunction {
        private final List<SensitivityModel> models;

        Objective(List<SensitivityModel> models) {
            this.models = models;
        }

        @Override
        public int dim() {
            return models.size();
        }

        @Override
        public double value(RealVector x) {
            double v = 0;
            for (int i = 0; i < models.size(); i++) {
                v += models.get(i).slowdown(x.getEntry(i));
            }
            return v;
        }

        @Override
        public RealVector gradient(RealVector x) {
            double[] g = new double[models.size()];
            for (int i = 0; i < g.length; i++) {
                g[i] = models.get(i).derivative(x.getEntry(i));
            }
            return new ArrayRealVector(g, false);
        }

        @Override
        public RealMatrix hessian(RealVector x) {
            int n = models.size();
            RealMatrix h = new Array2DRowRealMatrix(n, n);
            for (int i = 0; i < n; i++) {
                h.setEntry(i, i, models.get(i).secondDerivative(x.getEntry(i)));
            }
            return h;
        }
    }
}
