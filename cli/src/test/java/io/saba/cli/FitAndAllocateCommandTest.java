package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FitAndAllocateCommandTest extends InProcessCli {
    /** The table shipped in examples/, built by scripts/build-example-table.sh. */
    private static final Path SHIPPED = Path.of("..", "examples", "sensitivity-table.json");

    @TempDir
    Path dir;

    @Test
    void fitWritesAndUpdatesATable() throws Exception {
        Path csv = dir.resolve("lr.csv");
        Files.writeString(csv, "bandwidth_percent,slowdown\n10,4.5\n25,3.4\n50,2.0\n75,1.3\n100,1.0\n");
        Path table = dir.resolve("t.json");
        assertEquals(0, run("fit", "--samples", csv.toString(), "--workload", "LR", "--degree", "2", "--out", table.toString()));
        assertTrue(out.toString().startsWith("lr: D(b) = "), out.toString());
        Files.writeString(csv, "bandwidth_percent,slowdown\n10,1.9\n25,1.4\n75,1.02\n100,1.0\n");
        assertEquals(0, run("fit", "--samples", csv.toString(), "--workload", "pagerank", "--out", table.toString()));
        JsonNode t = new ObjectMapper().readTree(Files.readString(table));
        assertEquals(2, t.get("workloads").get("lr").get("degree").asInt(), "a degree alone is the paper's method");
        assertEquals("poly", t.get("workloads").get("lr").get("family").asText());
        JsonNode pr = t.get("workloads").get("pagerank");
        assertEquals("auto", pr.get("selection").get("choice").asText(), "without options, auto");
        assertTrue(pr.get("monotone").asBoolean());
        assertEquals(7, pr.get("selection").get("candidates").size(), "4 levels: k = 1..3 twice, and inverse");
        assertTrue(out.toString().contains("<- chosen (auto: lowest leave-one-level-out RMSE)"), out.toString());
    }

    @Test
    void refitReselectsEveryWorkloadOfATableFromItsSamplesKeepingTheContext() throws Exception {
        Path table = dir.resolve("refit.json");
        assertEquals(0, run("fit", "--refit", SHIPPED.toString(), "--out", table.toString()), err.toString());
        var shipped = io.saba.core.table.SensitivityTableCodec.parse(Files.readString(SHIPPED), "shipped");
        var refitted = io.saba.core.table.SensitivityTableCodec.parse(Files.readString(table), "refit");
        assertEquals(shipped.entries().keySet(), refitted.entries().keySet());
        for (var e : refitted.entries().values()) {
            assertEquals(shipped.find(e.workload()).orElseThrow().context(), e.context());
            assertEquals(shipped.find(e.workload()).orElseThrow().samples(), e.samples());
            assertTrue(e.fit().monotone(), e.workload() + " " + e.model());
            assertEquals("auto", e.selection().choice().toString());
        }
        assertEquals(2, run("fit", "--refit", SHIPPED.toString(), "--workload", "nosuch"));
        assertEquals(2, run("fit", "--samples", SHIPPED.toString()), "--samples needs --workload");
    }

    @Test
    void fitRejectsBadSamplesNamingTheLine() throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "bandwidth_percent,slowdown\n10,4.5\n0,3.4\n100,1\n");
        assertEquals(2, run("fit", "--samples", csv.toString(), "--workload", "x", "--degree", "1"));
        assertTrue(err.toString().contains("bad.csv: line 3 sample (0.0 %, 3.4x) has bandwidth 0.0 % outside (0, 100]"),
                err.toString());
        Files.writeString(csv, "bw,s\n");
        assertEquals(2, run("fit", "--samples", csv.toString(), "--workload", "x"));
        assertTrue(err.toString().contains("line 1 must be the header"));
    }

    @Test
    void allocateOnTheShippedTableGivesLrTheLargerShare() throws Exception {
        assertEquals(0, run("allocate", "--table", SHIPPED.toString(), "--apps", "lr,pagerank,lr", "--json"));
        JsonNode r = new ObjectMapper().readTree(out.toString());
        double lr = r.get("weights").get("lr").asDouble();
        double pr = r.get("weights").get("pagerank").asDouble();
        assertEquals(lr, r.get("weights").get("lr#2").asDouble(), 1e-9);
        assertEquals(1, lr * 2 + pr, 1e-9, "fractions of the link");
        assertTrue(lr > pr, out.toString());
        double objective = 0;
        for (JsonNode s : r.get("predicted_slowdown")) {
            objective += s.asDouble();
        }
        assertEquals(objective, r.get("objective").asDouble(), 1e-9);
    }

    @Test
    void allocateExplainsBadInput() throws Exception {
        assertEquals(2, run("allocate", "--table", SHIPPED.toString(), "--apps", "lr,nosuch"));
        assertTrue(err.toString().contains("workload 'nosuch' is not in"), err.toString());
        assertEquals(2, run("allocate", "--table", dir.resolve("missing.json").toString(), "--apps", "lr"));
        assertTrue(err.toString().contains("no such file"), err.toString());
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"format\":\"saba-sensitivity-table\",\"version\":1,\"workloads\":{\"lr\":{\"degree\":1}}}");
        assertEquals(2, run("allocate", "--table", broken.toString(), "--apps", "lr"));
        assertTrue(err.toString().contains("broken.json: workload 'lr': field 'coefficients'"), err.toString());
        assertEquals(2, run("allocate", "--table", SHIPPED.toString(), "--apps", "lr", "--capacity", "150"));
    }
}
