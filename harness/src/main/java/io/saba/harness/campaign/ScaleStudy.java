package io.saba.harness.campaign;

import io.saba.harness.csv.CsvLine;
import io.saba.core.progress.Progress;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolver;
import io.saba.core.model.ModelChoice;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.HomaLikePolicy;
import io.saba.harness.sim.policy.IdealMaxMinPolicy;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.policy.SabaPolicy;
import io.saba.harness.sim.policy.SincroniaLikePolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.SyntheticCatalog;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The large-scale study of paper §8.4 (Figs. 10, 11): the 20 synthetic workloads, 97 instances each, placed at
 * random on the 1,944-server spine-leaf cluster (one workload per server), all started together; each scheme's
 * completion times are compared with per-flow max-min (the InfiniBand baseline). Models are profiled on one rack
 * (18 servers) with degree 3.
 */
public final class ScaleStudy {
    /** Instances per synthetic workload (20 × 97 = 1,940 of the 1,944 servers). */
    public static final int INSTANCES = 97;
    /** InfiniBand carries 16 service levels; unlimited queues need one level per workload plus the default. */
    private static final int IB_LEVELS = 16;

    /** One scheme's outcome: its name, the paper's mean, per-job rows (baseline vs the scheme), wall time. */
    public record Scheme(String name, Double paperMean, List<JobOutcome> rows, double seconds) {
        public double mean() {
            return Speedups.allJobs(rows);
        }
    }

    private final TopologyNetwork network;
    private final List<JobSpec> jobs;
    private final SensitivityTable table;
    private final PortSolver solver = new CanonicalCachingSolver(new MinSlowdownSolver());
    private Mechanisms mechanisms = Mechanisms.NONE;
    private FabricLoad baselineLoad;

    /**
     * @param network    the cluster (the paper's spine-leaf, or a smaller one for tests)
     * @param instances instances per workload
     * @param seed      placement seed
     * @param model     which fitted models the simulated profile keeps (auto: as {@code saba profile})
     */
    public ScaleStudy(TopologyNetwork network, int instances, long seed, ModelChoice model) {
        this.network = network;
        List<WorkloadSpec> workloads = SyntheticCatalog.specs(network.hostLinkRate());
        this.table = new SimulatedProfiler(network, model).profile(workloads);
        List<String> hosts = new ArrayList<>(network.hosts());
        Collections.shuffle(hosts, new java.util.Random(new SplittableRandom(seed).nextLong()));
        if (hosts.size() < instances * workloads.size()) {
            throw new IllegalArgumentException("need " + instances * workloads.size() + " servers, network has "
                    + hosts.size());
        }
        List<JobSpec> js = new ArrayList<>();
        for (int w = 0; w < workloads.size(); w++) {
            js.add(new JobSpec(workloads.get(w).name(), workloads.get(w), 1.0,
                    hosts.subList(w * instances, (w + 1) * instances)));
        }
        this.jobs = List.copyOf(js);
    }

    /** The paper's configuration. */
    public static ScaleStudy paper(long seed, ModelChoice model) {
        return new ScaleStudy(Networks.spineLeaf(), INSTANCES, seed, model);
    }

    /**
     * The paper's 1,944 servers with ToR uplinks cut to give the oversubscription asked for (1 = the core's
     * near-non-blocking wiring, 17 leaves per pod). Not the paper's switch counts: a what-if for a congested core.
     */
    public static ScaleStudy oversubscribed(int ratio, long seed, ModelChoice model) {
        if (ratio <= 1) {
            return paper(seed, model);
        }
        int leavesPerPod = Math.max(1, (int) Math.round(18.0 / ratio));
        return new ScaleStudy(new TopologyNetwork(io.saba.core.topology.Topologies.spineLeaf(6, 18, leavesPerPod,
                18, 54, 18, Networks.GBPS, io.saba.core.topology.Topologies.PAPER_QUEUES), Networks.GBPS), INSTANCES,
                seed, model);
    }

    public SensitivityTable table() {
        return table;
    }

    private PolicyFactory saba(int queues, boolean distributed) {
        int levels = queues >= IB_LEVELS ? Math.max(IB_LEVELS, SyntheticCatalog.COUNT + 1) : IB_LEVELS;
        return SabaPolicy.factory(distributed
                ? ControllerPlanner.distributed(table, solver, levels, queues, 1.0)
                : ControllerPlanner.centralised(table, solver, levels, queues, 1.0));
    }

    /** Scheme name → policy, for a figure. */
    public Map<String, PolicyFactory> schemes(String figure) {
        Map<String, PolicyFactory> m = new LinkedHashMap<>();
        switch (figure) {
            case "fig10" -> {
                m.put("saba", saba(8, false));
                m.put("ideal-max-min", IdealMaxMinPolicy.FACTORY);
                m.put("homa", HomaLikePolicy.FACTORY);
                m.put("sincronia", SincroniaLikePolicy.FACTORY);
            }
            case "fig11a" -> {
                m.put("centralised", saba(8, false));
                m.put("distributed", saba(8, true));
            }
            case "fig11b" -> {
                for (int q : new int[] {2, 4, 8, 16}) {
                    m.put(String.valueOf(q), saba(q, false));
                }
                m.put("unlimited", saba(SyntheticCatalog.COUNT + 1, false));
            }
            default -> throw new IllegalArgumentException("not a scale figure: " + figure);
        }
        return m;
    }

    public static Map<String, Double> paperMeans(String figure) {
        return switch (figure) {
            case "fig10" -> PaperFigures.FIG10;
            case "fig11a" -> PaperFigures.FIG11A;
            case "fig11b" -> PaperFigures.FIG11B;
            default -> Map.of();
        };
    }

    /** Models these mechanisms in the baseline and every scheme (e.g. the queueing delay of shared queues). */
    public ScaleStudy with(Mechanisms m) {
        this.mechanisms = m;
        return this;
    }

    /** How loaded the fabric was in the last {@link #run}'s baseline (per-flow max-min) run. */
    public FabricLoad baselineLoad() {
        if (baselineLoad == null) {
            throw new IllegalStateException("no run yet");
        }
        return baselineLoad;
    }

    /** Runs the baseline and every scheme of a figure, in parallel on {@code threads}. */
    public List<Scheme> run(String figure, int threads, PrintStream progress) {
        Map<String, PolicyFactory> schemes = schemes(figure);
        Progress bar = new Progress(progress, figure + " simulations", schemes.size() + 1, 0);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            Future<double[]> base = pool.submit(() -> {
                long t0 = System.nanoTime();
                Simulation sim = mechanisms.simulation(network, jobs, PerFlowMaxMinPolicy.FACTORY).tracePortLoads();
                SimResult r = sim.run();
                double last = r.completionSeconds().values().stream().mapToDouble(Double::doubleValue).max()
                        .orElse(0);
                baselineLoad = FabricLoad.of(network, sim.portLoads(), last);
                bar.step();
                return times(r, (System.nanoTime() - t0) / 1e9);
            });
            Map<String, Future<double[]>> fs = new LinkedHashMap<>();
            schemes.forEach((name, pf) -> fs.put(name, pool.submit(() -> {
                long t0 = System.nanoTime();
                SimResult r = mechanisms.simulation(network, jobs, pf).run();
                bar.step();
                return times(r, (System.nanoTime() - t0) / 1e9);
            })));
            double[] b = base.get();
            List<Scheme> out = new ArrayList<>();
            for (Map.Entry<String, Future<double[]>> e : fs.entrySet()) {
                double[] p = e.getValue().get();
                List<JobOutcome> rows = new ArrayList<>();
                for (int i = 0; i < jobs.size(); i++) {
                    JobSpec j = jobs.get(i);
                    rows.add(new JobOutcome(0, j.id(), j.workload().name(), 1.0, j.hosts().size(), b[i], p[i]));
                }
                out.add(new Scheme(e.getKey(), paperMeans(figure).get(e.getKey()), rows, p[jobs.size()]));
            }
            out.add(0, new Scheme("baseline (per-flow max-min)", 1.0, List.of(), b[jobs.size()]));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException(figure + " failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    private double[] times(SimResult r, double seconds) {
        double[] t = new double[jobs.size() + 1];
        for (int i = 0; i < jobs.size(); i++) {
            t[i] = r.completionSeconds().get(jobs.get(i).id());
        }
        t[jobs.size()] = seconds;
        return t;
    }

    public static String report(String figure, List<Scheme> schemes) {
        StringBuilder s = new StringBuilder(figure + "  mean speedup over per-flow max-min (geometric over the 20 "
                + "workloads), 1,944 servers\n");
        s.append(String.format(Locale.ROOT, "%-28s %7s %7s %7s %7s %9s%n", "scheme", "ours", "paper", "best",
                "worst", "sim time"));
        for (Scheme sc : schemes) {
            if (sc.rows().isEmpty()) {
                s.append(String.format(Locale.ROOT, "%-28s %7s %7s %7s %7s %8.1fs%n", sc.name(), "1.00", "1.00", "",
                        "", sc.seconds()));
                continue;
            }
            double best = sc.rows().stream().mapToDouble(JobOutcome::speedup).max().orElse(Double.NaN);
            double worst = sc.rows().stream().mapToDouble(JobOutcome::speedup).min().orElse(Double.NaN);
            s.append(String.format(Locale.ROOT, "%-28s %7.2f %7s %7.2f %7.2f %8.1fs%n", sc.name(), sc.mean(),
                    sc.paperMean() == null ? "-" : String.format(Locale.ROOT, "%.2f", sc.paperMean()), best, worst,
                    sc.seconds()));
        }
        return s.toString();
    }

    public static void writeFigures(Path out, String figure, List<Scheme> schemes) {
        StringBuilder csv = new StringBuilder(CsvLine.of("scheme", "workload", "baseline_s", "scheme_s", "speedup"));
        List<String> labels = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> paper = new ArrayList<>();
        for (Scheme sc : schemes) {
            if (sc.rows().isEmpty()) {
                continue;
            }
            labels.add(sc.name());
            ours.add(sc.mean());
            paper.add(sc.paperMean() == null ? Double.NaN : sc.paperMean());
            for (JobOutcome o : sc.rows()) {
                csv.append(CsvLine.of(sc.name(), o.workload(), String.format(Locale.ROOT, "%.6f", o.baselineSeconds()),
                        String.format(Locale.ROOT, "%.6f", o.policySeconds()),
                        String.format(Locale.ROOT, "%.6f", o.speedup())));
            }
        }
        OutputFolder.write(out.resolve(figure + ".csv"), csv.toString());
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("ours", ours);
        series.put("paper", paper);
        Plots.bars(out.resolve(figure + ".png"), figure + ": mean speedup over per-flow max-min", "speedup", labels,
                series);
    }
}
