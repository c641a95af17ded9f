package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code saba allocate} speaks the controller's language: shares as fractions, levels as the controller numbers them. */
class AllocateVocabularyTest extends InProcessCli {
    private static final Path TABLE = Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath();

    @Test
    void jsonWeightsAreFractionsOfTheLinkAsOnStatusJson() throws Exception {
        assertEquals(0, run("allocate", "--table", TABLE.toString(), "--apps", "lr,pagerank,sort", "--json",
                "--capacity", "90"));
        JsonNode w = new ObjectMapper().readTree(out.toString()).get("weights");
        double sum = 0;
        for (JsonNode v : w) {
            assertTrue(v.asDouble() > 0 && v.asDouble() < 1, out.toString());
            sum += v.asDouble();
        }
        assertEquals(0.9, sum, 1e-6, out.toString());
    }

    @Test
    void levelsAreNumberedAsTheControllerNumbersThem(@TempDir Path dir) throws Exception {
        List<String> workloads = List.of("lr", "pagerank", "sort");
        assertEquals(0, run("allocate", "--table", TABLE.toString(), "--apps", String.join(",", workloads),
                "--levels"));
        Map<String, Integer> printed = new LinkedHashMap<>();
        out.toString().lines().forEach(l -> printed.put(l.split(" ")[0], Integer.parseInt(l.split(" ")[1])));

        Path config = Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, gbps: 10, queues: 8, address-base: 10.0.0.1}
                table: %s
                backend-options: {log: false}
                """.formatted(TABLE));
        Map<String, Integer> controller = new LinkedHashMap<>();
        try (EmbeddedController c = ControllerConfig.load(config)) {
            var at = c.start();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults("127.0.0.1:" + at.getPort()))) {
                List<SabaApplication> apps = new java.util.ArrayList<>();
                for (String w : workloads) { // in --apps order, as the command's help says
                    SabaApplication a = client.register(new AppSpec("app-" + w, w, "spark", "u", 0));
                    a.assigned().get(30, TimeUnit.SECONDS);
                    apps.add(a);
                }
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                do {
                    Thread.sleep(200); // the client hears of a level change on its next contact
                    for (SabaApplication a : apps) {
                        controller.put(a.spec().workload(), a.level());
                    }
                } while (!controller.equals(printed) && System.nanoTime() < end);
            }
        }
        assertEquals(controller, printed);
    }

    @Test
    void corunOnATableWithoutTrafficRecordsSaysWhereToFindSome(@TempDir Path dir) throws Exception {
        var r = SabaProcess.run(dir, 60, List.of("-Dsaba.home=" + Path.of("..").toAbsolutePath().normalize()),
                "allocate", "--method", "corun", "--table", TABLE.toString(), "--apps", "lr,sort");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        String line = r.errLines().get(0);
        String shipped = Path.of("..", "examples", "testbed-campaign", "table.json").toAbsolutePath().normalize()
                .toString();
        assertTrue(line.contains("has no traffic record") && line.contains(shipped), line);
        assertEquals(0, run("allocate", "--method", "corun", "--table", shipped, "--apps", "lr,sort"), err.toString());
    }
}
