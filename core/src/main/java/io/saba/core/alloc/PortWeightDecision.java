package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import java.util.List;

/**
 * The per-port step of the allocation pipeline: which share of the link each application on one port gets. The
 * pipeline groups a port's applications by model and then maps the levels present to the port's queues; this step
 * only decides the weights, so it can be replaced without touching the rest.
 *
 * <p>{@link MinSlowdownDecision} minimises the total predicted slowdown (the paper's Eq. 2). Other decisions fit
 * the same slot: one that keeps a port's current weights unless the new ones are predicted to be better by a
 * margin (a decorator around another decision), or one that predicts co-running slowdown another way. Whatever
 * the decision, its result carries the objective it predicts, which ends up in {@link PortAllocation}.
 */
@FunctionalInterface
public interface PortWeightDecision {
    /**
     * @param port     the port (a decision may remember what it chose per port)
     * @param models   the distinct models on the port
     * @param counts   applications per model (≥ 1 each)
     * @param capacity C_Saba, the share of the link the applications divide
     * @return per group, the weights of its applications (summing over all applications to {@code capacity}) and the
     *         predicted total slowdown
     */
    GroupSolution decide(PortId port, List<SensitivityModel> models, int[] counts, double capacity);
}
