package io.saba.harness.sim.policy;

import io.saba.core.model.ModelChoice;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyTest {
    private static final double LINE = 7e9;
    private final io.saba.harness.sim.network.FlowNetwork network = Networks.singleSwitch(4);

    /** Shuffle-only workload: two instances, LINE bytes per flow. */
    private static WorkloadSpec shuffleOnly(String name) {
        return new WorkloadSpec(name, 2, 0, 1.0, List.of(new StageSpec(1, 0, 4 * LINE, 0)));
    }

    @Test
    void sabaQueuesSplitTheSharedPortByTheControllersWeights() {
        // a: h1→h3 and h3→h1; b: h2→h3 and h3→h2. They share the switch port toward h3 (and toward nothing else).
        JobSpec a = new JobSpec("a", shuffleOnly("a"), 1.0, List.of("h1", "h3"));
        JobSpec b = new JobSpec("b", shuffleOnly("b"), 1.0, List.of("h2", "h3"));
        SabaPlanner fixed = apps -> {
            Map<PortId, PortAllocation> ports = new HashMap<>();
            for (AppPresence app : apps) {
                for (PortId p : app.ports()) {
                    ports.put(p, new PortAllocation(p, Map.of(1, 1, 2, 2), new double[] {0, 0.75, 0.25},
                            Map.of()));
                }
            }
            return new SabaPlan(Map.of("a", 1, "b", 2), ports);
        };
        SimResult r = new Simulation(network, List.of(a, b), SabaPolicy.factory(fixed)).run();
        // Port toward h3: a at 0.75·LINE, b at 0.25·LINE. a's LINE bytes take 4/3 s; b has then sent 1/3 and
        // finishes the remaining 2/3 at full rate: 4/3 + 2/3 = 2 s.
        assertEquals(4.0 / 3, r.completionSeconds().get("a"), 1e-9);
        assertEquals(2.0, r.completionSeconds().get("b"), 1e-9);
    }

    @Test
    void coreControllerGivesTheMoreSensitiveWorkloadMoreOfASharedPort() {
        var testbed = Networks.testbed();
        var specs = HibenchCatalog.specs(testbed.hostLinkRate());
        var table = new SimulatedProfiler(testbed, ModelChoice.AUTO).profile(specs.values());
        SabaPlanner c = ControllerPlanner.centralised(table, new CanonicalCachingSolver(new MinSlowdownSolver()), 16, 8,
                1.0);
        PortId shared = new PortId("s0", 3);
        SabaPlan plan = c.plan(List.of(new AppPresence("x", "rf", java.util.Set.of(shared)),
                new AppPresence("y", "sort", java.util.Set.of(shared))));
        PortAllocation pa = plan.ports().get(shared);
        double wx = pa.appWeights().get("x");
        double wy = pa.appWeights().get("y");
        assertEquals(1.0, wx + wy, 1e-6);
        assertTrue(wx > wy, "rf " + wx + " vs sort " + wy);
        // distinct levels ⇒ distinct queues, each weighted by its app
        int qx = pa.queueOfLevel().get(plan.levelOfApp().get("x"));
        int qy = pa.queueOfLevel().get(plan.levelOfApp().get("y"));
        assertTrue(qx != qy);
        assertEquals(wx, pa.queueWeights()[qx], 1e-9);

        SabaPlanner d = ControllerPlanner.distributed(table, new CanonicalCachingSolver(new MinSlowdownSolver()), 16, 2,
                1.0);
        SabaPlan dp = d.plan(List.of(new AppPresence("x", "rf", java.util.Set.of(shared)),
                new AppPresence("y", "lr", java.util.Set.of(shared))));
        assertEquals(3, dp.ports().get(shared).queueWeights().length, "2 Saba queues + the default one");
    }

    @Test
    void cachingSolverAnswersInTheCallersOrder() {
        var s = new CanonicalCachingSolver(new MinSlowdownSolver());
        SensitivityModel steep = SensitivityModel.of(5, -4);
        SensitivityModel flat = SensitivityModel.of(1.5, -0.5);
        PortSolution ab = s.solve(List.of(steep, flat), 1.0);
        PortSolution ba = s.solve(List.of(flat, steep), 1.0);
        assertArrayEquals(ab.weights(), new double[] {ba.weights()[1], ba.weights()[0]}, 1e-12);
        assertArrayEquals(new MinSlowdownSolver().solve(List.of(steep, flat), 1.0).weights(), ab.weights(), 1e-9);
    }

    @Test
    void sincroniaRunsTheSmallerCoflowFirstOnTheirBottleneck() {
        // Both shuffle into h3: a (1 flow each way) is smaller than b (4x the bytes); bottleneck-first puts b last.
        JobSpec a = new JobSpec("a", shuffleOnly("a"), 1.0, List.of("h1", "h3"));
        JobSpec b = new JobSpec("b", shuffleOnly("b"), 4.0, List.of("h2", "h3"));
        SimResult r = new Simulation(network, List.of(a, b), SincroniaLikePolicy.FACTORY).run();
        assertEquals(1.0, r.completionSeconds().get("a"), 1e-9);
        assertEquals(5.0, r.completionSeconds().get("b"), 1e-9);
    }

    @Test
    void homaLikeGivesTheReceiverLinkToTheShortestRemaining() {
        JobSpec a = new JobSpec("a", shuffleOnly("a"), 1.0, List.of("h1", "h3"));
        JobSpec b = new JobSpec("b", shuffleOnly("b"), 4.0, List.of("h2", "h3"));
        SimResult homa = new Simulation(network, List.of(a, b), HomaLikePolicy.FACTORY).run();
        SimResult fair = new Simulation(network, List.of(a, b), PerFlowMaxMinPolicy.FACTORY).run();
        // Homa: a's flow into h3 (shortest remaining) has the receiver's priority; b's flows move in lockstep
        // (engine approximation), so while b waits at h3's downlink it also leaves h3's NIC to a: a ends at 1 s.
        // Per-flow fair: a gets half of both h3 ports: 2 s. The link stays busy either way: b ends at 5 s.
        assertEquals(1.0, homa.completionSeconds().get("a"), 1e-9);
        assertEquals(5.0, homa.completionSeconds().get("b"), 1e-9);
        assertEquals(2.0, fair.completionSeconds().get("a"), 1e-9);
        assertEquals(5.0, fair.completionSeconds().get("b"), 1e-9);
    }
}
