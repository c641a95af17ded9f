package io.saba.core.solve;

/**
 * Eq. 2 weights by group of applications sharing a model: {@code values[g]} are the weights of group g's
 * applications (all equal unless the model is non-convex where the optimum lies), and the total predicted slowdown.
 */
public record GroupSolution(double[][] values, double objective) {
}
