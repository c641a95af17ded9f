package io.saba.core.model;

/** Power-basis polynomial arithmetic (coefficients lowest power first) for changing bases in the fitter. */
final class Polynomials {
    private Polynomials() {
    }

    static double evaluate(double[] c, double x) {
        double v = 0;
        for (int i = c.length - 1; i >= 0; i--) {
            v = v * x + c[i];
        }
        return v;
    }

    static double[] multiply(double[] p, double[] q) {
        double[] out = new double[p.length + q.length - 1];
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < q.length; j++) {
                out[i + j] += p[i] * q[j];
            }
        }
        return out;
    }
}
