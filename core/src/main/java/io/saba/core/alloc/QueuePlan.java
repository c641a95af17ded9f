package io.saba.core.alloc;

import io.saba.core.solve.GroupSolution;
import java.util.Map;
import java.util.TreeMap;

/**
 * One port's allocation computed from groups of applications that share a model (and therefore a level): what
 * the switch is told (level → queue, queue weights) and each group's Eq. 2 weights. {@link PortAllocation} adds
 * the per-application view.
 *
 * @param queueOfLevel indexed by level: its queue, or −1 for levels not on the port; level 0 → queue 0
 * @param queueWeights weight per queue, fractions of the link
 * @param shares       the Eq. 2 weights per group, in the order the groups were given
 */
public record QueuePlan(int[] queueOfLevel, double[] queueWeights, GroupSolution shares) {
    /** The level → queue map of the levels present (level 0 included). */
    public Map<Integer, Integer> queueMap() {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int level = 0; level < queueOfLevel.length; level++) {
            if (queueOfLevel[level] >= 0) {
                m.put(level, queueOfLevel[level]);
            }
        }
        return m;
    }
}
