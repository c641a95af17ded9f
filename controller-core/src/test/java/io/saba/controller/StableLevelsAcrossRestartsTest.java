package io.saba.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.state.AppView;
import io.saba.controller.state.Mutation;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topologies;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 3 in the controller: applications registered one by one keep the level they were first told, and a
 * restart, from the raw journal and then from the compacted one, gives every application the same level again
 * (levels depend on the order workloads arrived in, which a compacted journal keeps as its last record, the plan).
 */
class StableLevelsAcrossRestartsTest {
    private static final ModelCatalog CATALOG = new ModelCatalog(Map.of(
            "lr", SensitivityModel.of(5, -8, 4), "pr", SensitivityModel.of(3, -4, 2),
            "wc", SensitivityModel.of(1.2, -0.2), "sort", SensitivityModel.of(1.5, -0.5)));

    private static SabaController start(Path dir) {
        TopologyResolver topology = new TopologyResolver(Topologies.singleSwitch(4, 10, 8),
                Map.of("h1", List.of("10.0.0.1"), "h2", List.of("10.0.0.2"), "h3", List.of("10.0.0.3"),
                        "h4", List.of("10.0.0.4")));
        return new SabaController(topology, new Allocator(new MinSlowdownSolver(), 8, 0.9), CATALOG,
                new DryRunBackend(false, 10), new LocalLog(new Journal(dir, FsyncPolicy.NEVER, 20)),
                Duration.ofMinutes(5), new Metrics(), Duration.ZERO).start();
    }

    private static Map<String, Integer> levels(SabaController c) {
        Map<String, Integer> out = new TreeMap<>();
        for (AppView v : c.status(false).apps()) {
            out.put(v.appId(), v.level());
        }
        return out;
    }

    @Test
    void levelsStayPutAsWorkloadsComeAndGoAndAcrossRestarts(@TempDir Path dir) {
        Map<String, Integer> told = new TreeMap<>();
        try (SabaController c = start(dir)) {
            for (String[] app : new String[][] {{"a", "lr"}, {"b", "sort"}, {"c", "wc"}}) {
                told.put(app[0], c.register("", new Mutation.Register(app[0], app[1], "test", "u", 0, "")).level());
                told.forEach((id, level) -> assertEquals(level, c.app(id).level(), id + " was renumbered"));
            }
            c.deregister("", "b");
            told.remove("b");
            told.put("d", c.register("", new Mutation.Register("d", "pr", "test", "u", 0, "")).level());
            assertEquals(told, levels(c));
        }
        try (SabaController c = start(dir)) { // replays the journal as written, then compacts it
            assertEquals(told, levels(c), "after a restart");
        }
        try (SabaController c = start(dir)) { // replays the compacted journal
            assertEquals(told, levels(c), "after a restart from the compacted journal");
        }
    }
}
