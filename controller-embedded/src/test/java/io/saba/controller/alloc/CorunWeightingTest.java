package io.saba.controller.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.PortId;
import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
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
    private final CorunWeighting weighting = new CorunWeighting(profiles::get, 0.9, 0.05, 0.03);

    private static AllocationEngine.AppAtPort app(String id, String workload) {
        return new AllocationEngine.AppAtPort(id, workload, 1, SensitivityModel.flat(), 1);
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
        List<AllocationEngine.AppAtPort> apps = List.of(app("a", "long"), app("b", "short"));
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
}
