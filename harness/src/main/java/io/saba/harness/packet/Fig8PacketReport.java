package io.saba.harness.packet;

import io.saba.core.stats.Bootstrap;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.campaign.PaperFigures;
import io.saba.harness.campaign.Plots;
import io.saba.harness.campaign.Speedups;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code fig8-packet} prints and draws: Fig. 8a per workload and Fig. 8b over setups beside the paper's, and
 * the paired comparisons the question rests on (Saba over the baseline, and over the control that separates without
 * knowing sensitivity), each the geometric mean over setups of the per-setup means with a bootstrap 95 % interval.
 */
public final class Fig8PacketReport {
    /** Seed of every interval's resampling, so a report is the same for the same rows. */
    private static final long BOOTSTRAP_SEED = 8;

    private Fig8PacketReport() {
    }

    /** One paired comparison: {@code scheme}'s speedup over {@code base}. */
    record Pair(String label, Fig8Scheme base, Fig8Scheme scheme) {
        static Pair of(Fig8Scheme base, Fig8Scheme scheme) {
            return new Pair(scheme.label() + " over " + base.label(), base, scheme);
        }
    }

    /** The comparisons, in the order printed; those whose schemes did not run are left out. */
    static List<Pair> pairs(Fig8PacketJobs jobs) {
        List<Pair> all = List.of(
                Pair.of(Fig8Scheme.SHARED_CC, Fig8Scheme.SABA), Pair.of(Fig8Scheme.SHARED, Fig8Scheme.SABA),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA), Pair.of(Fig8Scheme.SHARED_CC, Fig8Scheme.CONTROL),
                Pair.of(Fig8Scheme.SHARED, Fig8Scheme.CONTROL), Pair.of(Fig8Scheme.SHARED, Fig8Scheme.SHARED_CC),
                Pair.of(Fig8Scheme.SHARED_CC, Fig8Scheme.SABA_EQ2), Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_EQ2),
                Pair.of(Fig8Scheme.SABA_EQUAL, Fig8Scheme.SABA), Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_EQUAL),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.CONTROL_15), Pair.of(Fig8Scheme.SABA, Fig8Scheme.SABA_SPREAD),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_SPREAD), Pair.of(Fig8Scheme.SABA, Fig8Scheme.SABA_APPS),
                Pair.of(Fig8Scheme.SABA_SPREAD, Fig8Scheme.SABA_APPS),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_APPS),
                Pair.of(Fig8Scheme.SABA_APPS_EQUAL, Fig8Scheme.SABA_APPS),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_APPS_EQUAL),
                Pair.of(Fig8Scheme.SABA, Fig8Scheme.SABA_SIZED),
                Pair.of(Fig8Scheme.SABA_EQUAL, Fig8Scheme.SABA_SIZED),
                Pair.of(Fig8Scheme.CONTROL, Fig8Scheme.SABA_SIZED), Pair.of(Fig8Scheme.SHARED, Fig8Scheme.ALONE),
                Pair.of(Fig8Scheme.FLUID_MAX_MIN, Fig8Scheme.FLUID_SABA));
        return all.stream().filter(p -> jobs.schemes().contains(p.base()) && jobs.schemes().contains(p.scheme()))
                .toList();
    }

    /** The baseline the per-workload table and the CDF compare with: the paper's, when it ran. */
    static Fig8Scheme baseline(Fig8PacketJobs jobs) {
        return jobs.schemes().contains(Fig8Scheme.SHARED_CC) ? Fig8Scheme.SHARED_CC : Fig8Scheme.SHARED;
    }

    /** The schemes of the per-workload table and the CDF. */
    static List<Pair> headline(Fig8PacketJobs jobs) {
        Fig8Scheme base = baseline(jobs);
        List<Pair> out = new ArrayList<>();
        for (Fig8Scheme s : List.of(Fig8Scheme.SABA, Fig8Scheme.SABA_EQ2, Fig8Scheme.CONTROL, Fig8Scheme.ALONE)) {
            if (jobs.schemes().contains(s)) {
                out.add(Pair.of(base, s));
            }
        }
        if (jobs.schemes().contains(Fig8Scheme.FLUID_SABA)) {
            out.add(Pair.of(Fig8Scheme.FLUID_MAX_MIN, Fig8Scheme.FLUID_SABA));
        }
        return out;
    }

    /** The report; {@code jobs} must hold at least one complete setup. */
    public static String text(Fig8PacketCampaign.Result r, Fig8PacketCampaign.Config cfg) {
        Fig8PacketJobs jobs = r.jobs();
        StringBuilder s = new StringBuilder();
        s.append("fig8-packet: ").append(cfg.describe()).append('\n');
        s.append(String.format(Locale.ROOT, "%d complete setups, %d jobs; speedup = baseline time / scheme time per "
                + "job%n%n", jobs.setups(), jobs.jobs().size()));
        List<Pair> head = headline(jobs);
        if (!head.isEmpty()) {
            figure8(s, jobs, head);
        }
        paired(s, jobs, cfg);
        s.append(PredictorCheck.text(r.predictions(), jobs));
        s.append(String.format(Locale.ROOT, "%nran %d setups now (%d had nothing left to run) in %.1f s, CPU %.1f s, "
                        + "%d data packets (%.0f per CPU-second)%n", r.ranNow(), r.resumed(), r.seconds(),
                r.cpuSeconds(), r.packets(), r.packets() / Math.max(1e-9, r.cpuSeconds())));
        return s.toString();
    }

    private static void figure8(StringBuilder s, Fig8PacketJobs jobs, List<Pair> head) {
        s.append("Fig. 8a  geometric-mean speedup per workload over the ").append(baseline(jobs).label())
                .append(" (fluid: over per-flow max-min)\n");
        s.append(String.format(Locale.ROOT, "%-14s", "workload"));
        head.forEach(p -> s.append(String.format(Locale.ROOT, " %9s", shortName(p.scheme()))));
        s.append(String.format(Locale.ROOT, " %7s %5s%n", "paper", "jobs"));
        Map<String, List<Fig8PacketJobs.Job>> byWorkload = byWorkload(jobs);
        byWorkload.forEach((w, js) -> s.append(workloadLine(w, js, head, PaperFigures.FIG8A.get(w))));
        s.append(workloadLine("mean (jobs)", jobs.jobs(), head, PaperFigures.FIG8_MEAN));

        s.append("\nFig. 8b  per-setup geometric-mean speedup\n");
        s.append(String.format(Locale.ROOT, "%-54s %7s %7s %7s %9s%n", "", "min", "median", "max", "slower"));
        for (Pair p : head) {
            List<Double> ps = Speedups.perSetup(outcomes(jobs, p));
            long slower = ps.stream().filter(x -> x < 1).count();
            s.append(String.format(Locale.ROOT, "%-54s %7.3f %7.3f %7.3f %5d/%-3d%n", p.label(), ps.get(0),
                    PacketStudy.median(ps), ps.get(ps.size() - 1), slower, ps.size()));
        }
        s.append(String.format(Locale.ROOT, "%-54s %7.2f %7s %7.2f %5d/%-3d%n", "paper: Saba over InfiniBand",
                PaperFigures.FIG8B_MIN, "-", PaperFigures.FIG8B_MAX, PaperFigures.FIG8B_SLOWER_SETUPS,
                PaperFigures.FIG8_SETUPS));
    }

    private static void paired(StringBuilder s, Fig8PacketJobs jobs, Fig8PacketCampaign.Config cfg) {
        s.append("\npaired over setups: geometric mean of the per-setup means, bootstrap 95 % interval over setups\n");
        for (Pair p : pairs(jobs)) {
            Bootstrap.Interval ci = Bootstrap.geomean95(perSetupInSetupOrder(outcomes(jobs, p)), BOOTSTRAP_SEED);
            s.append(String.format(Locale.ROOT, "%-54s %s%n", p.label(), ci));
        }
        s.append(byLoad(jobs));
        if (jobs.schemes().contains(Fig8Scheme.FLUID_MAX_MIN)) {
            List<Double> lossless = new ArrayList<>();
            for (Fig8PacketJobs.Job j : jobs.jobs()) {
                lossless.add(j.seconds().get(Fig8Scheme.SHARED)
                        / (j.seconds().get(Fig8Scheme.FLUID_MAX_MIN) * cfg.timeScale()));
            }
            s.append(String.format(Locale.ROOT, "%-54s %.3f (geometric mean over jobs)%n",
                    "shared VL time / fluid per-flow max-min time", Bootstrap.geomean(lossless)));
        }
    }

    /**
     * Per-host load as a mechanism: the setups split into thirds by their jobs per host (instances over the
     * switch's hosts), and each third's geometric mean of the per-setup speedups.
     */
    static String byLoad(Fig8PacketJobs jobs) {
        Map<Integer, Double> load = new TreeMap<>();
        jobs.jobs().forEach(j -> load.merge(j.setup(), (double) j.instances() / Fig8PacketCampaign.HOSTS,
                Double::sum));
        List<Integer> order = new ArrayList<>(load.keySet());
        order.sort(java.util.Comparator.comparingDouble(load::get));
        if (order.size() < 3) {
            return "";
        }
        List<Pair> ps = pairs(jobs).stream().filter(p -> !p.scheme().fluid()).toList();
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nby jobs per host (thirds of the setups; "
                + "geometric mean of the per-setup speedups)%n%-54s", ""));
        List<List<Integer>> thirds = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            List<Integer> part = order.subList(t * order.size() / 3, (t + 1) * order.size() / 3);
            thirds.add(part);
            s.append(String.format(Locale.ROOT, " %6.1f-%-5.1f", load.get(part.get(0)),
                    load.get(part.get(part.size() - 1))));
        }
        s.append('\n');
        for (Pair p : ps) {
            s.append(String.format(Locale.ROOT, "%-54s", p.label()));
            Map<Integer, List<Double>> per = new TreeMap<>();
            outcomes(jobs, p).forEach(o -> per.computeIfAbsent(o.setup(), k -> new ArrayList<>()).add(o.speedup()));
            for (List<Integer> part : thirds) {
                List<Double> means = part.stream().map(i -> Bootstrap.geomean(per.get(i))).toList();
                s.append(String.format(Locale.ROOT, " %12.3f", Bootstrap.geomean(means)));
            }
            s.append('\n');
        }
        return s.toString();
    }

    private static String shortName(Fig8Scheme s) {
        return switch (s) {
            case SABA -> "saba";
            case SABA_EQ2 -> "eq2";
            case SABA_EQUAL -> "saba-eqw";
            case CONTROL -> "control";
            case CONTROL_15 -> "ctrl-15";
            case ALONE -> "alone";
            case FLUID_SABA -> "fluid";
            default -> s.cliName();
        };
    }

    private static Map<String, List<Fig8PacketJobs.Job>> byWorkload(Fig8PacketJobs jobs) {
        Map<String, List<Fig8PacketJobs.Job>> out = new TreeMap<>();
        jobs.jobs().forEach(j -> out.computeIfAbsent(j.workload(), k -> new ArrayList<>()).add(j));
        return out;
    }

    private static List<JobOutcome> outcomes(Fig8PacketJobs jobs, Pair p) {
        return jobs.outcomes(p.base(), p.scheme());
    }

    private static double speedup(List<Fig8PacketJobs.Job> js, Pair p) {
        return Speedups.allJobs(js.stream().map(j -> j.outcome(p.base(), p.scheme())).toList());
    }

    private static String workloadLine(String name, List<Fig8PacketJobs.Job> js, List<Pair> head, Double paper) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-14s", name));
        head.forEach(p -> s.append(String.format(Locale.ROOT, " %9.3f", speedup(js, p))));
        s.append(String.format(Locale.ROOT, " %7s %5d%n", paper == null ? "-" : String.format(Locale.ROOT, "%.2f",
                paper), js.size()));
        return s.toString();
    }

    /** Per setup, the geometric mean of its jobs' speedups, in setup order (for resampling). */
    private static List<Double> perSetupInSetupOrder(List<JobOutcome> rows) {
        Map<Integer, List<Double>> by = new TreeMap<>();
        rows.forEach(o -> by.computeIfAbsent(o.setup(), k -> new ArrayList<>()).add(o.speedup()));
        List<Double> out = new ArrayList<>();
        by.values().forEach(v -> out.add(Bootstrap.geomean(v)));
        return out;
    }

    /** fig8a.csv, fig8b.csv and their plots in {@code out}. */
    public static void writeFigures(Path out, Fig8PacketJobs jobs) {
        List<Pair> head = headline(jobs);
        if (head.isEmpty()) {
            return; // only the baselines ran: the paired lines of the report are all there is
        }
        Map<String, List<Fig8PacketJobs.Job>> byWorkload = byWorkload(jobs);
        List<String> labels = new ArrayList<>(byWorkload.keySet());
        Map<String, List<Double>> bars = new LinkedHashMap<>();
        StringBuilder a = new StringBuilder("workload");
        head.forEach(p -> a.append(',').append(p.scheme().cliName()));
        a.append(",paper\n");
        for (String w : labels) {
            a.append(w);
            for (Pair p : head) {
                double v = speedup(byWorkload.get(w), p);
                a.append(String.format(Locale.ROOT, ",%.4f", v));
                if (p.scheme() != Fig8Scheme.ALONE) {
                    bars.computeIfAbsent(p.label(), k -> new ArrayList<>()).add(v);
                }
            }
            Double paper = PaperFigures.FIG8A.get(w);
            a.append(',').append(paper == null ? "" : paper.toString()).append('\n');
            bars.computeIfAbsent("paper (stated values only)", k -> new ArrayList<>())
                    .add(paper == null ? Double.NaN : paper);
        }
        OutputFolder.write(out.resolve("fig8a.csv"), a.toString());
        Plots.bars(out.resolve("fig8a.png"), "fig8-packet: speedup per workload", "speedup", labels, bars);
        Map<String, List<Double>> cdfs = new LinkedHashMap<>();
        for (Pair p : head) {
            if (p.scheme() != Fig8Scheme.ALONE) {
                cdfs.put(p.label(), Speedups.perSetup(outcomes(jobs, p)));
            }
        }
        // one column per comparison, each sorted: row i is every curve's value at CDF (i + 1) / n
        StringBuilder b = new StringBuilder("cdf");
        cdfs.keySet().forEach(k -> b.append(",\"").append(k).append('"'));
        b.append('\n');
        int n = cdfs.values().iterator().next().size();
        for (int i = 0; i < n; i++) {
            b.append(String.format(Locale.ROOT, "%.6f", (i + 1.0) / n));
            for (List<Double> v : cdfs.values()) {
                b.append(String.format(Locale.ROOT, ",%.6f", v.get(i)));
            }
            b.append('\n');
        }
        OutputFolder.write(out.resolve("fig8b.csv"), b.toString());
        Plots.cdfs(out.resolve("fig8b.png"), "fig8-packet: per-setup mean speedup", "speedup", cdfs,
                PaperFigures.fig8bReferences());
    }
}
