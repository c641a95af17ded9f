package io.saba.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.MinSlowdownDecision;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The do-no-harm rule and the hysteresis of the co-run weighting. */
class CorunWeightingTest {
    private static final PortId PORT = new PortId("sw", 1);
    private final Map<String, CorunProfile> profiles = new HashMap<>(Map.of(
            "short", CorunProfile.of(TrafficRecord.constant(5, 1, 0.1)),
            "long", CorunProfile.of(TrafficRecord.constant(20, 1, 0.1)),
            "compute", CorunProfile.of(TrafficRecord.constant(10, 0, 0.1))));
    private final CorunWeighting weighting = new CorunWeighting(new MinSlowdownDecision(new MinSlowdownSolver()),
            profiles::get, 0.9, 0.05, 0.03);

    private static AppAtPort app(String id, String workload) {
        return new AppAtPort(id, workload, 1, SensitivityModel.flat(), 1);
    }

    @Test
    void aPlanThatBeatsTheEqualSplitIsApplied() {
        Map<String, Double> w = weighting.weights(PORT, List.of(app("a", "long"), app("b", "short")), Map.of());
        assertEquals(0.05, w.get("a"), 1e-9, "the short job goes first: " + w);
        assertEquals(0.85, w.get("b"), 1e-9);
        CorunWeighting.Decided d = weighting.decisions().get(PORT);
        assertEquals("corun", d.source());
        assertTrue(d.gain() > 0.03, "predicted gain " + d.gain());
    }

    @Test
    void withoutAPredictedGainTheEqualSplitStays() {
        Map<String, Double> w = weighting.weights(PORT, List.of(app("a", "compute"), app("b", "compute")), Map.of());
        assertEquals(Map.of("a", 0.45, "b", 0.45), w);
        assertEquals("equal", weighting.decisions().get(PORT).source());
    }

    @Test
    void aPortKeepsItsWeightsUnlessANewPlanBeatsThemByTheMargin() {
        List<AppAtPort> apps = List.of(app("a", "long"), app("b", "short"));
        Map<String, Double> first = weighting.weights(PORT, apps, Map.of());
        // the table changes a little: the long job is now a bit shorter; the old weights are still near-best
        profiles.put("long", CorunProfile.of(TrafficRecord.constant(18, 1, 0.1)));
        assertEquals(first, weighting.weights(PORT, apps, Map.of()));
        assertEquals("held", weighting.decisions().get(PORT).source());
        // but a new application set is decided afresh
        Map<String, Double> w = weighting.weights(PORT, List.of(app("a", "long"), app("c", "long")), Map.of());
        assertEquals(0.9, w.get("a") + w.get("c"), 1e-9);
    }

    @Test
    void aPortWithAnApplicationWithoutATrafficRecordKeepsEq2() {
        assertNull(weighting.weights(PORT, List.of(app("a", "long"), app("b", "unprofiled")), Map.of()));
        assertNull(weighting.decisions().get(PORT));
        assertNull(weighting.weights(PORT, List.of(app("a", "long")), Map.of()), "a lone application");
    }

    @Test
    void inThePipelineItDecidesTheWeightsAndTheirPrediction() {
        SensitivityModel longModel = SensitivityModel.of(3, -2);
        SensitivityModel shortModel = SensitivityModel.of(2, -1);
        Allocator pipeline = new Allocator(weighting, new LevelAssigner(8), 0.9);
        LevelPlan plan = pipeline.planLevels(Map.of("long", longModel, "short", shortModel), 4);
        PortAllocation p = pipeline.allocatePort(PORT, 4, List.of(
                new AppAtPort("a", "long", plan.levelOf("long"), longModel, 1),
                new AppAtPort("b", "short", plan.levelOf("short"), shortModel, 1)), plan);
        assertEquals(0.05, p.appWeights().get("a"), 1e-9, "the co-run weights replace Eq. 2's: " + p.appWeights());
        assertEquals(0.85, p.appWeights().get("b"), 1e-9);
        assertEquals(weighting.decisions().get(PORT).predictedTotal(), p.predictedSlowdown(), 1e-12,
                "the port carries the predictor's total");
        double[] q = p.queueWeights();
        assertEquals(0.05, q[p.queueOfLevel().get(plan.levelOf("long"))], 1e-9, "queues sum their applications'");
        assertEquals(0.85, q[p.queueOfLevel().get(plan.levelOf("short"))], 1e-9);
        assertEquals(0.1, q[0], 1e-9);

        PortAllocation eq2 = pipeline.allocatePort(new PortId("sw", 2), 4, List.of(
                new AppAtPort("a", "long", plan.levelOf("long"), longModel, 1),
                new AppAtPort("c", "unprofiled", plan.levelOf("long"), longModel, 1)), plan);
        assertEquals(longModel.slowdown(0.45) * 2, eq2.predictedSlowdown(), 1e-9,
                "without a traffic record for everyone the port keeps Eq. 2's weights and prediction");
    }

    @Test
    void aSearchIsRememberedForEveryPortAndWeightingThatAsksItAgain() {
        CorunSearches searches = new CorunSearches();
        List<CorunProfile> two = List.of(profiles.get("long"), profiles.get("short"));
        double[] start = {0.45, 0.45};
        var first = searches.choose(two, 0.9, 0.05, start);
        assertTrue(first == searches.choose(List.copyOf(two), 0.9, 0.05, start.clone()), "the same search, remembered");
        assertTrue(first != searches.choose(two, 0.8, 0.05, start), "another capacity is another search");
        // two weightings sharing the searches decide alike, each with its own per-port memory
        CorunWeighting a = new CorunWeighting(new MinSlowdownDecision(new MinSlowdownSolver()), profiles::get, 0.9,
                0.05, 0.03, searches);
        CorunWeighting b = new CorunWeighting(new MinSlowdownDecision(new MinSlowdownSolver()), profiles::get, 0.9,
                0.05, 0.03, searches);
        List<AppAtPort> apps = List.of(app("a", "long"), app("b", "short"));
        assertEquals(a.weights(PORT, apps, Map.of()), b.weights(new PortId("sw", 9), apps, Map.of()));
        assertNull(a.decisions().get(new PortId("sw", 9)));
    }
}
