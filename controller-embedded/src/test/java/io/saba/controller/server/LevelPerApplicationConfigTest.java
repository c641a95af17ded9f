package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.state.AppView;
import io.saba.controller.state.Mutation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code level-per: application} in a configuration file: applications of one workload are each answered with a
 * level of their own (over gRPC too), and the controller started again from the same file and journal gives them the
 * same levels.
 */
class LevelPerApplicationConfigTest {
    private static Map<String, Integer> levels(EmbeddedController c) {
        Map<String, Integer> out = new TreeMap<>();
        for (AppView v : c.controller().status(false).apps()) {
            out.put(v.appId(), v.level());
        }
        return out;
    }

    @Test
    void applicationsOfOneWorkloadAreToldLevelsOfTheirOwnAndKeepThemAcrossARestart(@TempDir Path dir)
            throws Exception {
        Files.copy(Path.of("../examples/sensitivity-table.json"), dir.resolve("table.json"));
        Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, queues: 8}
                table: table.json
                levels: 8
                level-per: application
                backend: dry-run
                backend-options: {log: false}
                journal-dir: state
                """);
        Map<String, Integer> told = new TreeMap<>();
        try (EmbeddedController c = ControllerConfig.load(dir.resolve("saba.yaml"))) {
            c.start();
            told.put("a", c.controller().register("", new Mutation.Register("a", "lr", "test", "u", 0, "")).level());
            told.put("b", c.controller().register("", new Mutation.Register("b", "lr", "test", "u", 0, "")).level());
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication app = client.register(new AppSpec("c", "lr", "spark", "alice", 0));
                await("a level over the client").atMost(Fixtures.PATIENCE).until(() -> app.level() >= 1);
                told.put("c", app.level());
            }
            assertEquals(Map.of("a", 1, "b", 2, "c", 3), told, "one workload, a level per application");
            assertEquals(told, levels(c));
        }
        try (EmbeddedController c = ControllerConfig.load(dir.resolve("saba.yaml"))) {
            c.start();
            assertEquals(told, levels(c), "the journal replayed under the same setting");
        }
    }

    @Test
    void anUnknownValueIsNamed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "topology: {shape: single-switch:2}\nlevel-per: app\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerConfig.load(dir.resolve("bad.yaml")));
        assertTrue(e.getMessage().endsWith("bad.yaml: level-per must be workload or application, got 'app'"),
                e.getMessage());
    }
}
