/**
 * The paper's Eq. 2 for one switch port, solved to global optimality for every model Saba fits
 * ({@link io.saba.core.solve.Eq2Solver}): convex envelopes, their Lagrangian relaxation, rounding, and spatial branch
 * and bound where a model is not convex.
 */
package io.saba.core.solve;
