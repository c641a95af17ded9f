package io.saba.harness.campaign;

import io.saba.core.model.ModelChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SensitivityStudiesTest {
    private static final double LINE = 7e9; // 56 Gbit/s in bytes/s
    private final FlowNetwork network = Networks.singleSwitch(8);
    private final List<String> hosts = List.of("h1", "h2", "h3", "h4");

    /**
     * w per stage run on its 4 profiled instances at 1x: 5 s that no dataset changes, 5 s of compute that scales,
     * then 3 s of shuffle alone: D(b) = (10 + 3/b)/13, 1.69 at 25 %. At 0.1x: 5 + 0.5 s, then 0.3 s:
     * D(b) = (5.5 + 0.3/b)/5.8, 1.16 at 25 %: the profile overstates it by half. Its 12 stage runs are 12 units,
     * enough for the controller to judge drift within one run ({@code ModelDrift.MIN_UNITS}). v shuffles more than
     * it computes and does not drift much.
     */
    private final WorkloadSpec w = new WorkloadSpec("w", 4, 5, 1.0, List.of(new StageSpec(12, 5, 16 * LINE, 0)));
    private final WorkloadSpec v = new WorkloadSpec("v", 4, 0, 1.0, List.of(new StageSpec(4, 2, 32 * LINE, 0)));

    private ControllerPlanner tablePlanner(ModelChoice model) {
        SensitivityTable table = new SimulatedProfiler(network, model).profile(List.of(w, v));
        return ControllerPlanner.centralised(table, new MinSlowdownSolver(), LevelAssigner.INFINIBAND_LEVELS, 8, 1.0);
    }

    private SensitivityStudies.Variant variant(double scale) {
        return variant(scale, ModelChoice.AUTO);
    }

    private SensitivityStudies.Variant variant(double scale, ModelChoice model) {
        List<JobSpec> jobs = List.of(new JobSpec("w", w, scale, hosts), new JobSpec("v", v, scale, hosts));
        return SensitivityStudies.withEstimates("test", scale + "x", null, network, jobs, tablePlanner(model), model,
                Mechanisms.NONE);
    }

    @Test
    void aSmallerDatasetIsLearntFromOneRunAndFlaggedAsDrift() {
        SensitivityStudies.Variant tenth = variant(0.1);
        Map<String, SensitivityStudies.WorkloadEstimate> est = tenth.estimates().stream()
                .collect(Collectors.toMap(SensitivityStudies.WorkloadEstimate::workload, Function.identity()));
        SensitivityStudies.WorkloadEstimate e = est.get("w");
        assertEquals((5.5 + 1.2) / 5.8, e.truth().at25(), 1e-9);
        assertEquals((5.5 + 0.6) / 5.8, e.truth().at50(), 1e-9);
        assertTrue(e.table().at25() > 1.6, "the table holds the 1x curve: " + e.table());
        // compute then shuffle: a unit's wait times its share is its shuffle at the full link, whatever share it
        // had, so the estimate is the curve itself (to the millisecond the units are counted in)
        assertEquals(12, e.units());
        assertEquals(e.truth().at25(), e.online().at25(), 1e-3);
        assertEquals(e.truth().at50(), e.online().at50(), 1e-3);
        assertTrue(e.drifting(), "twelve units at two thirds of the table's slowdown");
        // blended: the table worth 8 units against the estimate's 12: moved from the table toward the truth
        assertTrue(e.blended().at25() < e.table().at25() - 0.1 && e.blended().at25() > e.online().at25() + 0.1,
                e.blended() + " between " + e.table() + " and " + e.online());
        for (SensitivityMode mode : SensitivityStudies.MODES) {
            assertEquals(2, tenth.rows().get(mode).size(), mode.label());
        }
        assertEquals(2, tenth.reprofiled().size());
    }

    @Test
    void atTheProfiledDatasetTheTableTheEstimateAndTheTruthAgree() {
        SensitivityStudies.WorkloadEstimate e = variant(1).estimates().stream()
                .filter(x -> x.workload().equals("w")).findFirst().orElseThrow();
        assertEquals(22.0 / 13, e.truth().at25(), 1e-9);
        assertEquals(e.truth().at25(), e.table().at25(), 1e-3);
        assertEquals(e.truth().at50(), e.table().at50(), 1e-3);
        assertEquals(e.truth().at50(), e.online().at50(), 1e-3);
        assertFalse(e.drifting(), "nothing drifted at the profiled dataset");
    }

    @Test
    void atTheProfiledDatasetTheEstimateIsTheCurveWhereThePapersCubicMissesIt() {
        SensitivityStudies.WorkloadEstimate e = variant(1, ModelChoice.paper(3)).estimates().stream()
                .filter(x -> x.workload().equals("w")).findFirst().orElseThrow();
        assertEquals(22.0 / 13, e.truth().at25(), 1e-9);
        assertEquals(16.0 / 13, e.truth().at50(), 1e-9);
        assertEquals(e.truth().at25(), e.online().at25(), 1e-3);
        assertEquals(e.truth().at50(), e.online().at50(), 1e-3);
        // The least-squares cubic through the 7 levels of (10 + 3/b)/13 (5.4 at 5 %) is 1.74 at 25 % but 0.85 at
        // 50 %, below 1: no drift, yet the estimate contradicts the table there and the controller says so.
        assertEquals(1.740, e.table().at25(), 0.01);
        assertEquals(0.847, e.table().at50(), 0.01);
        assertTrue(e.drifting(), "the cubic's dip at 50 % contradicts the units");
    }

    /**
     * The mechanisms reach Fig. 9's runs (before, it ran without any): QueueingDelayTest's hand-checked case as a
     * Fig. 9 variant. A bulk job (h1, h2) outlasts a job of 5 rounds (h3, h2) of 1 s compute and 2 s of shuffle at
     * half the link: 15 s under per-flow max-min, and 20 ms more per round (10 ms there and back behind the one
     * bulk flow in the FIFO) with the queueing delay.
     */
    @Test
    void theVariantsRunsModelTheMechanismsGiven() {
        WorkloadSpec bulk = new WorkloadSpec("bulk", 2, 0, 1.0, List.of(new StageSpec(1, 0, 4 * 100 * LINE, 0)));
        WorkloadSpec rounds = new WorkloadSpec("rounds", 2, 0, 1.0, List.of(new StageSpec(5, 1, 4 * LINE, 0)));
        List<JobSpec> jobs = List.of(new JobSpec("bulk", bulk, 1, List.of("h1", "h2")),
                new JobSpec("rounds", rounds, 1, List.of("h3", "h2")));
        ControllerPlanner planner = ControllerPlanner.centralised(new SimulatedProfiler(network, ModelChoice.AUTO)
                .profile(List.of(bulk, rounds)), new MinSlowdownSolver(), LevelAssigner.INFINIBAND_LEVELS, 8, 1.0);
        QueueingDelay tenMs = new QueueingDelay("t", 0.01 * LINE, Double.POSITIVE_INFINITY);
        for (Mechanisms m : List.of(Mechanisms.NONE, Mechanisms.NONE.withQueueing(tenMs))) {
            SensitivityStudies.Variant v = SensitivityStudies.withEstimates("test", "1x", null, network, jobs,
                    planner, ModelChoice.AUTO, m);
            JobOutcome r = v.rows().get(SensitivityMode.TABLE).stream().filter(o -> o.workload().equals("rounds"))
                    .findFirst().orElseThrow();
            assertEquals(m.queueing() == null ? 15.0 : 15.0 + 5 * 0.02, r.baselineSeconds(), 1e-9, m.describe());
        }
    }
}
