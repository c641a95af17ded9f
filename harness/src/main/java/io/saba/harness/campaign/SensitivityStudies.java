package io.saba.harness.campaign;

import io.saba.core.progress.Progress;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.policy.SabaPolicy;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The sensitivity studies of paper §8.3 (Fig. 9), each a homogeneous setup: every one of the ten workloads has one
 * instance on every server (one core each), all started together, once under per-flow max-min and once under
 * Saba (8 queues). (a) dataset 0.1x / 1x / 10x on the profiled 8 servers; (b) 4 / 8 / 16 / 24 / 32 servers (0.5x
 * to 4x the profiled nodes) at 1x; (c) models of degree 1 / 2 / 3 at 1x on 8 servers. Models are always profiled
 * at 1x on 8 servers, so (a) and (b) measure how Saba copes when runtime drifts from profiling.
 */
public final class SensitivityStudies {
    /** One variant of one study: its label, the paper's mean, and per-job outcomes. */
    public record Variant(String study, String label, Double paperMean, List<JobOutcome> rows) {
        public double mean() {
            return Speedups.allJobs(rows);
        }
    }

    private SensitivityStudies() {
    }

    public static List<Variant> run(int threads, java.io.PrintStream progress) {
        List<WorkloadSpec> workloads = new ArrayList<>(HibenchCatalog.specs(Networks.testbed().hostLinkRate())
                .values());
        Map<Integer, PolicyFactory> sabaByDegree = new LinkedHashMap<>();
        for (int k = 1; k <= 3; k++) {
            SensitivityTable t = new SimulatedProfiler(Networks.testbed(), k).profile(workloads);
            sabaByDegree.put(k, SabaPolicy.factory(ControllerPlanner.centralised(t,
                    new CanonicalCachingSolver(new MinSlowdownSolver()), LevelAssigner.INFINIBAND_LEVELS, 8, 1.0)));
        }
        record Task(String study, String label, Double paper, int servers, double scale, int degree) {
        }
        List<Task> tasks = new ArrayList<>();
        for (double d : new double[] {0.1, 1, 10}) {
            tasks.add(new Task("9a dataset", d + "x", PaperFigures.FIG9A.get(d), 8, d, 3));
        }
        for (double x : new double[] {0.5, 1, 2, 3, 4}) {
            tasks.add(new Task("9b nodes", x + "x", PaperFigures.FIG9B.get(x), (int) Math.round(8 * x), 1, 3));
        }
        for (int k = 1; k <= 3; k++) {
            tasks.add(new Task("9c degree", "k=" + k, PaperFigures.FIG9C.get(k), 8, 1, k));
        }
        Progress bar = new Progress(progress, "fig9 scenarios", tasks.size(), 0);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<Variant>> fs = new ArrayList<>();
            for (Task t : tasks) {
                fs.add(pool.submit(() -> {
                    FlowNetwork network = Networks.singleSwitch(Math.max(t.servers(), 8));
                    List<String> hosts = network.hosts().subList(0, t.servers());
                    List<JobSpec> jobs = new ArrayList<>();
                    for (WorkloadSpec w : workloads) {
                        jobs.add(new JobSpec(w.name(), w, t.scale(), hosts));
                    }
                    List<JobOutcome> rows = PairedRun.run(0, network, jobs, PerFlowMaxMinPolicy.FACTORY,
                            sabaByDegree.get(t.degree()));
                    bar.step();
                    return new Variant(t.study(), t.label(), t.paper(), rows);
                }));
            }
            List<Variant> out = new ArrayList<>();
            for (Future<Variant> f : fs) {
                out.add(f.get());
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("fig9 failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    public static String report(List<Variant> variants) {
        StringBuilder s = new StringBuilder("Fig. 9  mean speedup of Saba over per-flow max-min (geometric, 10 jobs)\n");
        s.append(String.format(Locale.ROOT, "%-11s %-7s %7s %7s   per workload (ours)%n", "study", "variant", "ours",
                "paper"));
        for (Variant v : variants) {
            StringBuilder per = new StringBuilder();
            Speedups.perWorkload(v.rows()).forEach((w, x) -> per.append(String.format(Locale.ROOT, " %s %.2f", w, x)));
            s.append(String.format(Locale.ROOT, "%-11s %-7s %7.2f %7s  %s%n", v.study(), v.label(), v.mean(),
                    v.paperMean() == null ? "-" : String.format(Locale.ROOT, "%.2f", v.paperMean()), per));
        }
        return s.toString();
    }

    public static void writeFigures(Path out, List<Variant> variants) {
        StringBuilder csv = new StringBuilder("study,variant,workload,baseline_s,saba_s,speedup\n");
        for (Variant v : variants) {
            for (JobOutcome o : v.rows()) {
                csv.append(String.format(Locale.ROOT, "%s,%s,%s,%.6f,%.6f,%.6f%n", v.study(), v.label(),
                        o.workload(), o.baselineSeconds(), o.policySeconds(), o.speedup()));
            }
        }
        OutputFolder.write(out.resolve("fig9.csv"), csv.toString());
        for (String study : List.of("9a dataset", "9b nodes", "9c degree")) {
            List<String> labels = new ArrayList<>();
            List<Double> ours = new ArrayList<>();
            List<Double> paper = new ArrayList<>();
            for (Variant v : variants) {
                if (v.study().equals(study)) {
                    labels.add(v.label());
                    ours.add(v.mean());
                    paper.add(v.paperMean() == null ? Double.NaN : v.paperMean());
                }
            }
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("ours", ours);
            series.put("paper", paper);
            Plots.bars(out.resolve("fig" + study.substring(0, 2) + ".png"), "Fig. " + study, "mean speedup",
                    labels, series);
        }
    }
}
