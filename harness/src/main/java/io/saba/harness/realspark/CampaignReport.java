package io.saba.harness.realspark;

import io.saba.harness.campaign.Cdf;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.campaign.PaperFigures;
import io.saba.harness.campaign.Plots;
import io.saba.harness.campaign.Speedups;
import io.saba.harness.campaign.TestbedCampaign;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real-Spark campaign beside the paper's Fig. 8: per-workload geometric-mean speedups, each setup's mean speedup
 * and their distribution (the simulated campaign's tables, {@link TestbedCampaign#report(List, String)}), failures
 * counted, and the per-setup CDF with what the paper states about its own.
 */
public final class CampaignReport {
    static final String BASELINE = "plain Spark (one FIFO per port)";

    private CampaignReport() {
    }

    /** Geometric-mean speedup of each setup's jobs that finished in both runs, by setup (absent if none did). */
    public static Map<Integer, Double> perSetup(List<JobRow> rows) {
        Map<Integer, List<Double>> by = new TreeMap<>();
        for (JobRow r : rows) {
            if (r.complete()) {
                by.computeIfAbsent(r.setup(), k -> new ArrayList<>()).add(r.speedup());
            }
        }
        Map<Integer, Double> out = new TreeMap<>();
        by.forEach((s, v) -> out.put(s, Speedups.geomean(v)));
        return out;
    }

    /** The printed comparison (also summary.txt). */
    public static String text(List<JobRow> rows, String allocation) {
        List<JobOutcome> done = rows.stream().filter(JobRow::complete).map(JobRow::outcome).toList();
        long setups = rows.stream().mapToInt(JobRow::setup).distinct().count();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Real-Spark campaign on the namespace testbed: %d setups, %d jobs, %d "
                + "finished in both runs; Saba's allocation: %s; baseline: %s%n%n", setups, rows.size(), done.size(),
                allocation, BASELINE));
        if (done.isEmpty()) {
            s.append("no job finished under both the baseline and Saba: nothing to compare\n");
        } else {
            s.append(TestbedCampaign.report(done, BASELINE));
            s.append(String.format(Locale.ROOT, "(paper: Sort %+.0f %%, PR %+.0f %%)%n",
                    (PaperFigures.FIG8A.get("sort") - 1) * 100, (PaperFigures.FIG8A.get("pagerank") - 1) * 100));
        }
        s.append("\nper setup\n");
        s.append(String.format(Locale.ROOT, "%-6s %8s  %s%n", "setup", "speedup",
                "jobs: workload xFACTOR @hosts (! = not in both runs)"));
        Map<Integer, Double> mean = perSetup(rows);
        Map<Integer, List<JobRow>> by = new TreeMap<>();
        rows.forEach(r -> by.computeIfAbsent(r.setup(), k -> new ArrayList<>()).add(r));
        by.forEach((i, jobs) -> s.append(String.format(Locale.ROOT, "%-6d %8s  %s%n", i,
                mean.containsKey(i) ? String.format(Locale.ROOT, "%.2f", mean.get(i)) : "-", describe(jobs))));
        List<JobRow> troubled = rows.stream().filter(r -> !r.note().isBlank()).toList();
        if (!troubled.isEmpty()) {
            s.append("\nnotes\n");
            troubled.forEach(r -> s.append(r.job().id()).append(' ').append(r.job().workload()).append(": ")
                    .append(r.note()).append('\n'));
        }
        return s.toString();
    }

    private static String describe(List<JobRow> jobs) {
        List<String> parts = new ArrayList<>();
        for (JobRow r : jobs) {
            SetupJob j = r.job();
            parts.add(j.workload() + " x" + JobsCsv.factor(j.factor()) + " @" + j.hostList().replace(';', ',')
                    + (r.complete() ? "" : "!"));
        }
        return String.join(", ", parts);
    }

    /**
     * per-workload.csv, setups-cdf.csv and setups-cdf.png (ours as a step CDF; the paper's minimum, its 2 of 500
     * setups below 1x and its maximum as points, its mean as a line: the paper gives no more of its curve).
     */
    public static void writeFigures(Path dir, List<JobRow> rows) {
        List<JobOutcome> done = rows.stream().filter(JobRow::complete).map(JobRow::outcome).toList();
        StringBuilder a = new StringBuilder("workload,jobs,ours_speedup,paper_speedup\n");
        Map<String, Long> counts = new TreeMap<>();
        done.forEach(o -> counts.merge(o.workload(), 1L, Long::sum));
        Speedups.perWorkload(done).forEach((w, v) -> a.append(String.format(Locale.ROOT, "%s,%d,%.4f,%s%n", w,
                counts.get(w), v, PaperFigures.FIG8A.containsKey(w) ? PaperFigures.FIG8A.get(w).toString() : "")));
        OutputFolder.write(dir.resolve("per-workload.csv"), a.toString());
        List<Double> sorted = perSetup(rows).values().stream().sorted().toList();
        OutputFolder.write(dir.resolve("setups-cdf.csv"), Cdf.csv("speedup", sorted));
        Plots.cdf(dir.resolve("setups-cdf.png"), "Per-setup mean speedup, real Spark on the testbed",
                "speedup (baseline time / Saba time)", sorted, PaperFigures.fig8bReferences());
    }
}
