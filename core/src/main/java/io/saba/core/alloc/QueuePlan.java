package io.saba.core.alloc;

import io.saba.core.solve.GroupSolution;
import java.util.Map;

/**
 * One port's allocation computed from groups of applications that share a model (and therefore a level): what
 * the switch is told (level → queue, queue weights) and each group's Eq. 2 weights. {@link PortAllocation} adds
 * the per-application view.
 *
 * @param queueOfLevel level → queue index; level 0 → queue 0
 * @param queueWeights weight per queue, fractions of the link
 * @param shares       the Eq. 2 weights per group, in the order the groups were given
 */
public record QueuePlan(Map<Integer, Integer> queueOfLevel, double[] queueWeights, GroupSolution shares) {
}
