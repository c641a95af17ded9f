package io.saba.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.estimate.ModelSource;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.signals.ReportedSignals;
import io.saba.controller.state.Mutation;
import io.saba.controller.state.StateReads;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topologies;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import io.saba.wire.WorkSignals;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under {@code sensitivity: blended} the models learnt from reported units decide weights, so they must survive a
 * restart exactly: the journal carries the observations (and a compacted journal what was learnt), and a restarted
 * controller, from the raw journal and then from the compacted one, has the same estimates, models and weights.
 */
class LearnedModelsAcrossRestartsTest {
    private static final ModelCatalog CATALOG = new ModelCatalog(Map.of(
            "lr", SensitivityModel.of(5, -8, 4), "sort", SensitivityModel.of(1.5, -0.5)));

    private static SabaController start(Path dir) {
        TopologyResolver topology = new TopologyResolver(Topologies.singleSwitch(4, 10, 8),
                Map.of("h1", List.of("10.0.0.1"), "h2", List.of("10.0.0.2"), "h3", List.of("10.0.0.3"),
                        "h4", List.of("10.0.0.4")));
        return new SabaController(topology, new Allocator(new MinSlowdownSolver(), 8, 0.9), CATALOG,
                new DryRunBackend(false, 10), new LocalLog(new Journal(dir, FsyncPolicy.NEVER, 20)),
                Duration.ofMinutes(5), new Metrics(), Duration.ZERO, SensitivityMode.BLENDED).start();
    }

    private static ConnectionKey key(int src, int dst) {
        return new ConnectionKey("10.0.0." + src, 40_000 + src, "10.0.0." + dst, 7337, Transport.TCP);
    }

    /** A stage that ended just now after 20 ms, its tasks having run 2 s, {@code wait} ms of it on the network. */
    private static ReportedSignals stage(String app, int i, long wait) {
        return new ReportedSignals(app, new WorkSignals("stage " + i + ".0", "s", System.currentTimeMillis(), 4, 20,
                2_000, wait, Map.of(), Map.of("shuffle_remote_read", 1_000_000L), Map.of()));
    }

    private static Map<PortId, Map<String, Double>> weights(SabaController c) throws InterruptedException {
        assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(30)));
        Map<PortId, Map<String, Double>> out = new TreeMap<>();
        for (PortAllocation p : c.status(false).ports().values()) {
            out.put(p.port(), new TreeMap<>(p.appWeights()));
        }
        return out;
    }

    @Test
    void learntModelsAndTheirWeightsSurviveRestarts(@TempDir Path dir) throws Exception {
        Map<String, WorkloadEstimateView> learnt;
        Map<PortId, Map<String, Double>> weights;
        try (SabaController c = start(dir)) {
            c.register("", new Mutation.Register("a", "lr", "test", "u", 0, ""));
            c.register("", new Mutation.Register("b", "sort", "test", "u", 0, ""));
            c.connectionEvent("", new Mutation.Opened("a", key(1, 2), 1));
            c.connectionEvent("", new Mutation.Opened("b", key(3, 2), 1));
            Map<PortId, Map<String, Double>> profiled = weights(c);
            for (int i = 1; i <= 8; i++) {
                // lr waits on the network far less than its table says; sort, at its 0.05 of the port, far more
                assertEquals(2, c.signals("", List.of(stage("a", i, 200), stage("b", i, 1_900))).applied());
                weights(c); // each unit at the weights of the models in force when it ran
            }
            learnt = c.replica().read(StateReads::estimates);
            assertEquals(ModelSource.BLENDED, learnt.get("lr").source());
            assertEquals(16, learnt.get("lr").estimate().observations() + learnt.get("sort").estimate().observations());
            assertEquals(ModelSource.BLENDED, learnt.get("sort").source());
            weights = weights(c);
            assertNotEquals(profiled, weights, "the learnt models moved the weights");
        }
        for (int restart = 0; restart < 2; restart++) { // from the raw journal, then from the compacted one
            try (SabaController c = start(dir)) {
                assertEquals(learnt, c.replica().read(StateReads::estimates), "restart " + restart);
                assertEquals(weights, weights(c), "restart " + restart);
            }
        }
    }
}
