package io.saba.harness.sim.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.estimate.ModelSource;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.core.estimate.Observation;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.engine.StageRun;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.network.ThrottledNetwork;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatedUnitsTest {
    private static final double LINE = 7e9; // 56 Gbit/s in bytes/s
    private final FlowNetwork network = Networks.singleSwitch(8);
    private final List<String> hosts = List.of("h1", "h2", "h3", "h4");

    /**
     * Per stage run on 4 instances: 10 s of compute, then a shuffle of LINE bytes per flow, 3 flows per host link:
     * 3 s alone. Its slowdown curve is exactly D(b) = (10 + 3/b)/13, an a + c/b curve with Φ = 3/13.
     */
    private static WorkloadSpec computeThenShuffle(String name, int runs) {
        return new WorkloadSpec(name, 4, 0, 1.0, List.of(new StageSpec(runs, 10, 16 * LINE, 0)));
    }

    @Test
    void twoEqualJobsSeeHalfTheLinkAndTheirUnitsGiveTheWorkloadsExactCurve() {
        // Two identical jobs on the same hosts shuffle at once under per-flow max-min: 6 flows per host link, a
        // sixth of the link each, half the link per job: the shuffle takes 6 s and the stage 16 s.
        WorkloadSpec w = computeThenShuffle("w", 3);
        Simulation sim = new Simulation(network, List.of(new JobSpec("a", w, 1, hosts), new JobSpec("b", w, 1, hosts)),
                PerFlowMaxMinPolicy.FACTORY).traceStageRuns();
        sim.run();
        List<StageRun> runs = sim.stageRuns();
        assertEquals(6, runs.size());
        for (StageRun r : runs) {
            assertEquals(16, r.end() - r.start(), 1e-9);
            assertEquals(6, r.networkWaitSeconds(), 1e-9);
            assertEquals(0.5, r.receivedShare(), 1e-12);
            Observation o = SimulatedUnits.observation(r);
            // 4 tasks of 16 s, 6 s of them waiting, at half the link; 12 flows of LINE bytes crossed the network
            assertEquals(new Observation(64_000, 24_000, 0.5, Math.round(12 * LINE)), o);
        }
        SensitivityEstimate e = SensitivityEstimate.of(runs.stream().map(SimulatedUnits::observation).toList());
        assertEquals(3.0 / 13, e.networkShare(), 1e-12);
        assertEquals(0, e.standardError(), 1e-12);
        // the curve the estimate found is the workload's own: alone, throttled to 25 % and 50 %
        JobSpec alone = new JobSpec("a", w, 1, hosts);
        double full = SimulatedProfiler.runAlone(network, alone);
        for (double b : new double[] {0.25, 0.5}) {
            double truth = SimulatedProfiler.runAlone(new ThrottledNetwork(network, b), alone) / full;
            assertEquals((10 + 3 / b) / 13, truth, 1e-9);
            assertEquals(truth, e.slowdown(b), 1e-9);
        }
    }

    @Test
    void aShuffleHiddenUnderTheComputationWaitsForNothing() {
        // 10 s of compute, the 3 s shuffle starting after 5 s: it ends at 8 s, the stage at 10 s
        WorkloadSpec w = new WorkloadSpec("w", 4, 0, 1.0, List.of(new StageSpec(1, 10, 16 * LINE, 0.5)));
        Simulation sim = new Simulation(network, List.of(new JobSpec("a", w, 1, hosts)), PerFlowMaxMinPolicy.FACTORY)
                .traceStageRuns();
        sim.run();
        StageRun r = sim.stageRuns().get(0);
        assertEquals(5, r.shuffleStart(), 1e-9);
        assertEquals(8, r.shuffleDrained(), 1e-9);
        assertEquals(1, r.receivedShare(), 1e-12);
        assertEquals(0, r.networkWaitSeconds());
        assertEquals(new Observation(40_000, 0, 1.0, Math.round(12 * LINE)), SimulatedUnits.observation(r));
    }

    @Test
    void theControllersModesPutTheEstimateInForceAsTheyDoOnRealUnits() {
        // The table says w is insensitive; its units (two jobs at half the link, 3 units each) say Φ = 3/13.
        WorkloadSpec w = computeThenShuffle("w", 3);
        Simulation sim = new Simulation(network, List.of(new JobSpec("a", w, 1, hosts), new JobSpec("b", w, 1, hosts)),
                PerFlowMaxMinPolicy.FACTORY).traceStageRuns();
        sim.run();
        ModelCatalog catalog = new ModelCatalog(Map.of("w", SensitivityModel.flat(), "v",
                SensitivityModel.inverse(0.5, 0.5)));
        SensitivityModel estimated = SensitivityModel.inverse(10.0 / 13, 3.0 / 13);

        RunLearning online = RunLearning.of(SensitivityMode.ONLINE, catalog, sim.stageRuns());
        assertEquals(ModelSource.ESTIMATED, online.views().get("w").source());
        assertEquals(22.0 / 13, online.modelOf("w", catalog).slowdown(0.25), 1e-9);
        assertEquals(estimated.slowdown(0.1), online.modelOf("w", catalog).slowdown(0.1), 1e-9);
        assertFalse(online.views().get("w").drifting(), "6 units: too few to judge");
        List<StageRun> again = new ArrayList<>(sim.stageRuns()); // the same two jobs run once more: 12 units
        again.addAll(sim.stageRuns());
        assertTrue(RunLearning.of(SensitivityMode.ONLINE, catalog, again).views().get("w").drifting(),
                "12 units contradict a flat table by far");
        assertEquals(catalog.modelOf("v"), online.modelOf("v", catalog)); // nothing observed: the table's

        // blended: the table (worth 8 units) and the estimate (6 equal units) weighed 8 : 6 at every share
        RunLearning blended = RunLearning.of(SensitivityMode.BLENDED, catalog, sim.stageRuns());
        assertEquals((8 * 1.0 + 6 * 22.0 / 13) / 14, blended.modelOf("w", catalog).slowdown(0.25), 1e-9);

        // online needs 3 units: a single job of 2 stage runs leaves the table in force
        Simulation two = new Simulation(network, List.of(new JobSpec("a", computeThenShuffle("w", 2), 1, hosts)),
                PerFlowMaxMinPolicy.FACTORY).traceStageRuns();
        two.run();
        RunLearning few = RunLearning.of(SensitivityMode.ONLINE, catalog, two.stageRuns());
        assertEquals(2, few.views().get("w").estimate().observations());
        assertEquals(ModelSource.PROFILED, few.views().get("w").source());
        assertEquals(SensitivityModel.flat(), few.modelOf("w", catalog));
        assertNotEquals(SensitivityModel.flat(), RunLearning.of(SensitivityMode.BLENDED, catalog, two.stageRuns())
                .modelOf("w", catalog));
        assertFalse(few.views().get("w").drifting(), "two units are not judged");
    }
}
