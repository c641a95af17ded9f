package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.SensitivityModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-application fair baseline: the same share for every application, queues weighted by their members. */
class EqualWeightsTest {
    private static final SensitivityModel LR = SensitivityModel.of(5, -8, 4);
    private static final SensitivityModel SORT = SensitivityModel.of(1.5, -0.5);

    @Test
    void everyApplicationGetsTheSameShareAndEachQueueTheSumOfItsApplications() {
        Allocator allocator = new Allocator(new EqualWeights(), new LevelAssigner(LevelAssigner.ETHERNET_LEVELS), 0.9);
        LevelPlan plan = allocator.planLevels(Map.of("lr", LR, "sort", SORT), 4);
        PortAllocation p = allocator.allocatePort(new PortId("s0", 1), 4, List.of(
                new AppAtPort("lr-1", "lr", plan.levelOf("lr"), LR, 1),
                new AppAtPort("sort-1", "sort", plan.levelOf("sort"), SORT, 1),
                new AppAtPort("sort-2", "sort", plan.levelOf("sort"), SORT, 3)), plan);
        assertEquals(Map.of("lr-1", 0.3, "sort-1", 0.3, "sort-2", 0.3), rounded(p.appWeights()),
                "Eq. 2 would give lr, the sensitive one, more; connections do not count");
        assertEquals(0.3, p.queueWeights()[p.queueOfLevel().get(plan.levelOf("lr"))], 1e-12);
        assertEquals(0.6, p.queueWeights()[p.queueOfLevel().get(plan.levelOf("sort"))], 1e-12);
        assertEquals(LR.slowdown(0.3) + 2 * SORT.slowdown(0.3), p.predictedSlowdown(), 1e-12,
                "the models' prediction at those shares");
    }

    private static Map<String, Double> rounded(Map<String, Double> w) {
        return w.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                e -> Math.round(e.getValue() * 1e12) / 1e12));
    }
}
