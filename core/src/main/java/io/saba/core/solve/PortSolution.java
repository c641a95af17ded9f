package io.saba.core.solve;

/**
 * Weights for one port's applications (fractions of the link, in input order) and the predicted total slowdown.
 *
 * @param weights   w_i, summing to the capacity
 * @param objective Σ D_i(w_i)
 */
public record PortSolution(double[] weights, double objective) {
}
