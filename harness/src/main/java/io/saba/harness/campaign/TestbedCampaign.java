package io.saba.harness.campaign;

import io.saba.core.progress.Progress;
import io.saba.core.table.SensitivityTableCodec;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The testbed campaign of paper §8.2 (Fig. 8): setups of 16 jobs on 32 servers behind one 56 Gbit/s switch, each
 * run under per-flow max-min and under Saba (8 queues, C_Saba = 100 %, models profiled in the simulator with
 * degree k). Per-job rows go to {@code jobs.csv} as setups finish; a rerun on the same folder skips the setups
 * already there.
 */
public final class TestbedCampaign {
    /**
     * @param rows      all per-job outcomes, ordered by setup then job
     * @param seconds   wall time of this invocation
     * @param ranNow    setups simulated by this invocation
     * @param resumed   setups found already done in the folder
     */
    public record Result(List<JobOutcome> rows, double seconds, int ranNow, int resumed) {
    }

    private TestbedCampaign() {
    }

    /** Runs the campaign on {@code cfg.threads()} local worker threads. */
    public static Result run(TestbedCampaignConfig cfg, PrintStream progress) {
        return run(cfg, progress, new LocalSetupRunner(cfg.threads()));
    }

    /** Runs the setups not yet in the output folder on {@code runner}; the rows do not depend on the runner. */
    public static Result run(TestbedCampaignConfig cfg, PrintStream progress, SetupRunner runner) {
        long t0 = System.nanoTime();
        OutputFolder.prepare(cfg.out(), cfg.fingerprint());
        TestbedSetups setups = TestbedSetups.of(cfg);
        OutputFolder.write(cfg.out().resolve("sensitivity-table.json"), SensitivityTableCodec.toJson(setups.table()));

        OutcomeCsv csv = new OutcomeCsv(cfg.out().resolve("jobs.csv"));
        Set<Integer> done = completeSetups(csv.read());
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < cfg.setups(); i++) {
            if (!done.contains(i)) {
                pending.add(i);
            }
        }
        Progress bar = new Progress(progress, "fig8 setups (" + runner.describe() + ")", cfg.setups(),
                cfg.setups() - pending.size());
        runner.runAll(setups, pending, rows -> {
            csv.append(rows);
            bar.step();
        });
        List<JobOutcome> rows = new ArrayList<>();
        for (JobOutcome o : csv.read()) {
            if (o.setup() < cfg.setups()) {
                rows.add(o);
            }
        }
        rows.sort(Comparator.comparingInt(JobOutcome::setup).thenComparingInt(o -> jobNumber(o.job())));
        return new Result(dedupe(rows), (System.nanoTime() - t0) / 1e9, pending.size(),
                cfg.setups() - pending.size());
    }

    private static int jobNumber(String id) {
        return Integer.parseInt(id.substring(id.lastIndexOf('j') + 1));
    }

    /** A setup is complete when all of its 16 rows are present; partial ones are rerun. */
    private static Set<Integer> completeSetups(List<JobOutcome> rows) {
        Map<Integer, Set<String>> by = new HashMap<>();
        for (JobOutcome o : rows) {
            by.computeIfAbsent(o.setup(), k -> new HashSet<>()).add(o.job());
        }
        Set<Integer> done = new HashSet<>();
        by.forEach((k, v) -> {
            if (v.size() == SetupRules.paper().maxJobs()) {
                done.add(k);
            }
        });
        return done;
    }

    /** A setup rerun after a torn write appears twice; keep the first complete copy of each job. */
    private static List<JobOutcome> dedupe(List<JobOutcome> rows) {
        Set<String> seen = new HashSet<>();
        List<JobOutcome> out = new ArrayList<>();
        for (JobOutcome o : rows) {
            if (seen.add(o.job())) {
                out.add(o);
            }
        }
        return out;
    }

    /** The simulated campaign's baseline, as its report names it. */
    public static final String FLUID_BASELINE = "per-flow max-min";

    /** The Fig. 8 comparison as text: per-workload table and per-setup distribution, paper beside ours. */
    public static String report(List<JobOutcome> rows) {
        return report(rows, FLUID_BASELINE);
    }

    /** As {@link #report(List)}, against the baseline named; {@code rows} must not be empty. */
    public static String report(List<JobOutcome> rows, String baseline) {
        return report(rows, "Saba", baseline);
    }

    /** As {@link #report(List)}, naming the policy (what ran instead of Saba, such as the fair baseline). */
    public static String report(List<JobOutcome> rows, String policy, String baseline) {
        StringBuilder s = new StringBuilder();
        Map<String, Double> per = Speedups.perWorkload(rows);
        s.append("Fig. 8a  speedup of ").append(policy).append(" over ").append(baseline)
                .append(", geometric mean per workload\n");
        s.append(String.format(Locale.ROOT, "%-14s %8s %8s %6s%n", "workload", "ours", "paper", "jobs"));
        Map<String, Long> counts = new HashMap<>();
        rows.forEach(o -> counts.merge(o.workload(), 1L, Long::sum));
        per.forEach((w, v) -> s.append(String.format(Locale.ROOT, "%-14s %8.2f %8s %6d%n", w, v,
                PaperFigures.FIG8A.containsKey(w) ? String.format(Locale.ROOT, "%.2f", PaperFigures.FIG8A.get(w))
                        : "-", counts.get(w))));
        double meanOfWorkloads = Speedups.geomean(per.values());
        s.append(String.format(Locale.ROOT, "%-14s %8.2f %8.2f%n", "mean (wl)", meanOfWorkloads,
                PaperFigures.FIG8_MEAN));
        s.append(String.format(Locale.ROOT, "%-14s %8.2f %8.2f%n", "mean (jobs)", Speedups.allJobs(rows),
                PaperFigures.FIG8_MEAN));
        List<Double> setups = Speedups.perSetup(rows);
        long slower = setups.stream().filter(x -> x < 1).count();
        s.append("\nFig. 8b  per-setup geometric-mean speedup (").append(setups.size()).append(" setups)\n");
        s.append(String.format(Locale.ROOT, "%-22s %8s %8s%n", "", "ours", "paper"));
        s.append(String.format(Locale.ROOT, "%-22s %8.2f %8.2f%n", "min", setups.get(0), PaperFigures.FIG8B_MIN));
        s.append(String.format(Locale.ROOT, "%-22s %8.2f %8s%n", "median", setups.get(setups.size() / 2), "-"));
        s.append(String.format(Locale.ROOT, "%-22s %8.2f %8.2f%n", "max", setups.get(setups.size() - 1),
                PaperFigures.FIG8B_MAX));
        s.append(String.format(Locale.ROOT, "%-22s %8d %8d%n", "setups slower (<1)", slower,
                PaperFigures.FIG8B_SLOWER_SETUPS));
        return s.toString();
    }

    /** fig8a.csv / fig8b.csv and their PNGs in the output folder. */
    public static void writeFigures(java.nio.file.Path out, List<JobOutcome> rows) {
        Map<String, Double> per = Speedups.perWorkload(rows);
        List<String> labels = new ArrayList<>(per.keySet());
        List<Double> ours = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        StringBuilder a = new StringBuilder("workload,ours_speedup,paper_speedup\n");
        for (String w : labels) {
            ours.add(per.get(w));
            Double p = PaperFigures.FIG8A.get(w);
            paper.add(p == null ? Double.NaN : p);
            a.append(String.format(Locale.ROOT, "%s,%.4f,%s%n", w, per.get(w), p == null ? "" : p.toString()));
        }
        OutputFolder.write(out.resolve("fig8a.csv"), a.toString());
        Map<String, List<Double>> series = new java.util.LinkedHashMap<>();
        series.put("ours", ours);
        series.put("paper (stated values only)", paper);
        Plots.bars(out.resolve("fig8a.png"), "Fig. 8a: speedup per workload (Saba / per-flow max-min)", "speedup",
                labels, series);
        List<Double> setups = Speedups.perSetup(rows);
        OutputFolder.write(out.resolve("fig8b.csv"), Cdf.csv("speedup", setups));
        Plots.cdf(out.resolve("fig8b.png"), "Fig. 8b: per-setup mean speedup", "speedup", setups,
                PaperFigures.fig8bReferences());
    }
}
