package io.saba.harness.campaign;

import io.saba.core.model.ModelChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.workload.HibenchCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestbedCampaignTest {
    @TempDir
    Path tmp;

    private TestbedCampaignConfig config(int setups, long seed, int threads, Path out) {
        return new TestbedCampaignConfig(setups, seed, ModelChoice.AUTO, 8, 1.0, threads, out);
    }

    @Test
    void setupsFollowThePapersRules() {
        var network = Networks.testbed();
        var gen = new SetupGenerator<>(new ArrayList<>(HibenchCatalog.specs(network.hostLinkRate()).values()),
                network.hosts(), SetupRules.paper(), 7);
        for (int i = 0; i < 50; i++) {
            var jobs = gen.setup(i);
            assertEquals(16, jobs.size());
            Map<String, Integer> perServer = new HashMap<>();
            for (var j : jobs) {
                assertTrue(j.hosts().size() >= 4 && j.hosts().size() <= 32);
                assertEquals(j.hosts().size(), new HashSet<>(j.hosts()).size(), "one instance per server");
                assertTrue(List.of(0.1, 1.0, 10.0).contains(j.datasetScale()));
                j.hosts().forEach(h -> perServer.merge(h, 1, Integer::sum));
            }
            perServer.values().forEach(n -> assertTrue(n <= 16, "at most 16 jobs per server"));
        }
        assertEquals(gen.setup(3), gen.setup(3));
    }

    @Test
    void resultsDependOnTheSeedNotOnThreadsAndResumeSkipsDoneSetups() throws Exception {
        TestbedCampaign.Result one = TestbedCampaign.run(config(3, 11, 1, tmp.resolve("a")), null);
        TestbedCampaign.Result two = TestbedCampaign.run(config(3, 11, 2, tmp.resolve("b")), null);
        assertEquals(one.rows(), two.rows());
        assertEquals(3 * 16, one.rows().size());

        // An interrupted run: setup 1 never written, setup 2 torn mid-row. Rerunning the same campaign
        // simulates exactly those two and ends with the same rows.
        Path csv = tmp.resolve("a").resolve("jobs.csv");
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(csv)) {
            if (!line.startsWith("1,") && !line.startsWith("2,")) {
                kept.add(line);
            }
        }
        kept.add("2,s2-j0,lr,1.0,8,12.5");
        Files.write(csv, kept);
        TestbedCampaign.Result resumed = TestbedCampaign.run(config(3, 11, 2, tmp.resolve("a")), null);
        assertEquals(2, resumed.ranNow());
        assertEquals(1, resumed.resumed());
        assertEquals(one.rows(), resumed.rows());

        TestbedCampaign.Result other = TestbedCampaign.run(config(1, 12, 2, tmp.resolve("d")), null);
        assertTrue(!other.rows().equals(one.rows().subList(0, 16)), "another seed draws other setups");
        assertThrows(IllegalArgumentException.class,
                () -> TestbedCampaign.run(config(3, 12, 2, tmp.resolve("a")), null), "folder of another campaign");
    }

    @Test
    void reportAndFiguresAreWritten() {
        TestbedCampaign.Result r = TestbedCampaign.run(config(1, 5, 2, tmp), null);
        String report = TestbedCampaign.report(r.rows());
        assertTrue(report.contains("Fig. 8a") && report.contains("Fig. 8b") && report.contains("1.88"));
        TestbedCampaign.writeFigures(tmp, r.rows());
        for (String f : List.of("jobs.csv", "fig8a.csv", "fig8a.png", "fig8b.csv", "fig8b.png",
                "sensitivity-table.json")) {
            assertTrue(Files.exists(tmp.resolve(f)), f);
        }
    }
}
