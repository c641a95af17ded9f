package io.saba.core.alloc;

import io.saba.core.solve.GroupSolution;

/**
 * The per-port step of the allocation pipeline: which share of the link each application on one port gets. The
 * pipeline groups a port's applications by model and then maps the levels present to the port's queues; this step
 * only decides the weights, so it can be replaced without touching the rest.
 *
 * <p>{@link MinSlowdownDecision} minimises the total predicted slowdown (the paper's Eq. 2). Other decisions fit
 * the same slot, typically wrapping it: the controller's co-run weighting ({@code allocation: corun}) replays the
 * applications' traffic records and keeps Eq. 2's weights where it cannot, applying its own only when they are
 * predicted to beat the equal split and the port's current weights by a margin. Whatever the decision, its result
 * carries the objective it predicts, which ends up in {@link PortAllocation#predictedSlowdown()}.
 */
@FunctionalInterface
public interface PortWeightDecision {
    /**
     * @param capacity C_Saba, the share of the link the applications divide
     * @return per group, the weights of its applications (group g's k-th application in the demand's order takes
     *         {@code weight(g, k)}; over all applications they sum to {@code capacity}) and the predicted total
     *         slowdown
     */
    GroupSolution decide(PortDemand demand, double capacity);
}
