package io.saba.harness.hibench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.harness.campaign.JobOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** HiBench report parsing and the campaign plan, against the fixture files in src/test/resources/hibench. */
class HibenchParsingTest {
    static final Path FIXTURES = Path.of("src/test/resources/hibench");

    @Test
    void parsesAHibenchReportWithRepeatedHeaders() throws Exception {
        List<HibenchReportReader.Line> lines = HibenchReportReader.parse(Files.readString(FIXTURES.resolve("hibench.report")),
                "hibench.report");
        assertEquals(6, lines.size());
        assertEquals(List.of("wordcount", "sort", "lr", "pagerank", "nutchindexing", "sql"),
                lines.stream().map(HibenchReportReader.Line::workload).toList());
        HibenchReportReader.Line sort = lines.get(1);
        assertEquals(3_200_000_000L, sort.inputBytes());
        assertEquals(181.906, sort.seconds(), 1e-9);
        assertEquals("2023-01-12", sort.date());
        assertEquals(2_198_938L, sort.throughputPerNode());
        assertEquals("sort", HibenchReportReader.workloadOf("SabaSparkTerasort"));
    }

    @Test
    void badLinesNameTheFileAndLine() {
        String text = "Type Date Time Input_data_size Duration(s) Throughput(bytes/s) Throughput/node\n"
                + "ScalaSparkSort 2023-01-12 10:47:02 10 fast 1 1\n";
        assertEquals("r.report:2: bad number (For input string: \"fast\"): ScalaSparkSort 2023-01-12 10:47:02 10 fast 1 1",
                assertThrows(IllegalArgumentException.class, () -> HibenchReportReader.parse(text, "r.report")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HibenchReportReader.parse("ScalaSparkSort 1 2\n", "x"))
                .getMessage().startsWith("x:1: expected 7 columns"));
        assertEquals("HiBench type 'ScalaSparkKmeans' is none of the paper's ten workloads",
                assertThrows(IllegalArgumentException.class, () -> HibenchReportReader.workloadOf("ScalaSparkKmeans"))
                        .getMessage());
    }

    @Test
    void joinsPlanAndReportsIntoSpeedupsAndListsWhatIsMissing() throws Exception {
        var plan = CampaignPlan.parse(Files.readString(FIXTURES.resolve("plan.csv")), "plan.csv");
        CampaignResults.Joined j = CampaignResults.join(plan, FIXTURES.resolve("reports"));
        Map<String, Double> speedup = new HashMap<>();
        for (JobOutcome o : j.outcomes()) {
            speedup.put(o.job(), o.speedup());
        }
        // the last run line of a report counts (s1-j0's baseline was re-run: 200 s)
        assertEquals(Map.of("s0-j0", 1.25, "s0-j1", 50.0 / 55.0, "s1-j0", 2.0), speedup);
        assertEquals(1, j.missing().size());
        assertTrue(j.missing().get(0).startsWith("s1-j1: no "), j.missing().get(0));
        String text = CampaignResults.render(j);
        assertTrue(text.contains("sort               2   1.581x"), text);
        assertTrue(text.contains("wordcount          1   0.909x"), text);
        assertTrue(text.contains("per-setup speedup CDF: p0 1.066"), text);
    }

    @Test
    void planFollowsTheSimulatorsRulesAndMatchesTheFixture() throws Exception {
        List<String> hosts = List.of("n1", "n2", "n3", "n4", "n5", "n6");
        var rules = CampaignPlan.rules(2, hosts.size(), 16, 16);
        assertEquals(1, rules.minInstances());
        assertEquals(6, rules.maxInstances());
        var rows = CampaignPlan.plan(List.of("lr", "sort", "wordcount", "pagerank"), hosts, rules, 7, 3);
        assertEquals(48, rows.size());
        for (CampaignPlan.Row r : rows) {
            assertEquals(r.hosts().size(), r.hosts().stream().distinct().count(), "one instance per host: " + r);
            assertTrue(List.of(0.1, 1.0, 10.0).contains(r.datasetScale()), r.toString());
        }
        String csv = CampaignPlan.toCsv(rows);
        assertEquals(Files.readString(FIXTURES.resolve("plan-seed7.csv")), csv);
        assertEquals(rows, CampaignPlan.parse(csv, "plan"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CampaignPlan.parse(
                CampaignPlan.HEADER + "\n0,s0-j0,lr,1.0,3,n1;n2\n", "p.csv")).getMessage()
                .startsWith("p.csv:2: not a plan row"));
    }
}
