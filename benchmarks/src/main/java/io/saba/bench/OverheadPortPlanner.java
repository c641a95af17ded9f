package io.saba.bench;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortDemand;
import io.saba.core.alloc.QueuePlan;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans one port of an {@link OverheadScenario} from its state, the count of applications per workload model, as
 * the controller does ({@link Allocator#planPort}): Eq. 2 plus the queue mapping under the scenario's level plan.
 *
 * @param models       the benchmark's models; a port's counts index into it
 * @param levelOfModel each model's level under {@code plan}
 */
record OverheadPortPlanner(Allocator allocator, List<SensitivityModel> models, int[] levelOfModel, LevelPlan plan) {

    /**
     * Plans the port, starting the solver from its last multiplier if {@code warm}, and keeps the new multiplier;
     * true once done (the result is what a backend would be pushed).
     */
    boolean plan(OverheadScenario.PortState port, boolean warm) {
        QueuePlan q = planPort(port, warm ? port.lambda : Double.NaN);
        port.lambda = q.shares().lambda();
        return q != null;
    }

    private QueuePlan planPort(OverheadScenario.PortState port, double hint) {
        int[] counts = port.counts;
        int groups = 0;
        for (int c : counts) {
            groups += c > 0 ? 1 : 0;
        }
        List<SensitivityModel> present = new ArrayList<>(groups);
        int[] presentCounts = new int[groups];
        int[] presentLevels = new int[groups];
        for (int m = 0, g = 0; m < counts.length; m++) {
            if (counts[m] > 0) {
                present.add(models.get(m));
                presentCounts[g] = counts[m];
                presentLevels[g++] = levelOfModel[m];
            }
        }
        return allocator.planPort(PortDemand.ofGroups(port.port, present, presentCounts, hint), port.queues,
                presentLevels, plan);
    }
}
