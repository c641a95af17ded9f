package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignReportTest {
    @TempDir
    Path dir;

    private static JobRow row(int setup, int job, String workload, double base, double saba) {
        return new JobRow(setup, new SetupJob("s" + setup + "-j" + job, workload, 1, List.of(2)),
                RunOutcome.ok(base), Double.isNaN(saba) ? RunOutcome.failed("exit 1") : RunOutcome.ok(saba),
                Double.isNaN(saba) ? "saba failed: exit 1" : "");
    }

    private static final List<JobRow> ROWS = List.of(
            row(0, 0, "sort", 10, 5), row(0, 1, "lr", 8, 16), row(0, 2, "lr", 9, Double.NaN),
            row(1, 0, "sort", 12, 4), row(1, 1, "sort", 10, 10));

    @Test
    void perSetupMeansAreGeometricOverJobsThatFinishedBothRuns() {
        Map<Integer, Double> m = CampaignReport.perSetup(ROWS);
        assertEquals(1.0, m.get(0), 1e-9, "sqrt(2 x 0.5); the failed lr job is left out");
        assertEquals(Math.sqrt(3), m.get(1), 1e-9);
    }

    @Test
    void theTextPutsOursBesideThePaperAndCountsFailures() {
        String t = CampaignReport.text(ROWS, "corun");
        assertTrue(t.contains("2 setups, 5 jobs, 4 finished in both runs"), t);
        assertTrue(t.contains("Fig. 8a") && t.contains("1.88") && t.contains("0.94") && t.contains("2.92"), t);
        assertTrue(t.contains("lr                 0.50     3.60      1"), t);
        assertTrue(t.contains("Sort -5 %, PR -1 %"), t);
        assertTrue(t.contains("s0-j2 lr: saba failed: exit 1"), t);
        assertTrue(t.contains("0          1.00  sort x1 @h2, lr x1 @h2, lr x1 @h2!"),
                "each setup's mean and jobs; a job without both times is marked: " + t);
    }

    @Test
    void nothingToCompareIsSaidPlainly() {
        String t = CampaignReport.text(List.of(row(0, 0, "lr", 9, Double.NaN)), "eq2");
        assertTrue(t.contains("nothing to compare"), t);
        CampaignReport.writeFigures(dir, List.of(row(0, 0, "lr", 9, Double.NaN)));
        assertTrue(Files.exists(dir.resolve("setups-cdf.png")));
    }

    @Test
    void figuresAreWrittenAndTheCdfEndsAtOne() throws Exception {
        CampaignReport.writeFigures(dir, ROWS);
        for (String f : List.of("per-workload.csv", "setups-cdf.csv", "setups-cdf.png")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        List<String> cdf = Files.readAllLines(dir.resolve("setups-cdf.csv"));
        assertEquals(List.of("speedup,cdf", "1.0000,0.5000", "1.7321,1.0000"), cdf);
        String per = Files.readString(dir.resolve("per-workload.csv"));
        assertTrue(per.contains("lr,1,0.5000,3.6") && per.contains("sort,3,"), per);
        assertFalse(per.contains("NaN"), per);
    }
}
