/**
 * Bandwidth sharing: how the capacity of ports is divided among flow groups at one instant.
 *
 * <p>Two solvers, both pure functions of their input: {@link io.saba.harness.sim.sharing.ProgressiveFilling}
 * computes textbook (weighted) max-min fairness across many links, and
 * {@link io.saba.harness.sim.sharing.PortFixedPointSharing} lets every port divide its capacity by its own
 * scheduling structure (strict-priority classes of weighted round-robin queues, flows fair inside a queue) and
 * finds the rates at which all ports agree. The second is what the policies use; the first is its reference in
 * tests (with one queue per port both must give the same answer).
 */
package io.saba.harness.sim.sharing;
