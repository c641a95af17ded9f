package io.saba.harness.campaign;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.core.progress.Progress;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.estimate.RunLearning;
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
import java.util.EnumMap;
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
 *
 * <p>Beyond the paper, every variant of (a) and (b) also runs Saba on what the online estimate learnt:
 * the Saba run on the static table is the learning run (a user's first run of the drifted job, the controller
 * holding the table); its stage runs go, as the plugins' units, through the controller's {@code LearnedModels}
 * under {@code sensitivity: online} and {@code blended} ({@link RunLearning}); the scenario then runs again with
 * Saba allocating on the models each mode put in force. Each workload's estimate is set beside its true curve in
 * the variant (the simulated workload alone on the variant's servers and dataset, throttled to 25 % and 50 %), and
 * Saba on a table profiled again in the variant ({@link #REPROFILED}) is run as the reference: what drift costs
 * the static table, with the paper's fitting.
 */
public final class SensitivityStudies {
    /** The sensitivity modes the drift studies run; {@code table} is the paper's Saba. */
    public static final List<SensitivityMode> MODES = List.of(SensitivityMode.TABLE, SensitivityMode.ONLINE,
            SensitivityMode.BLENDED);

    /**
     * One variant of one study: its label, the paper's mean, and per-job outcomes under each sensitivity mode run
     * (only {@code table} for the degree study), with each workload's estimate (none for the degree study).
     */
    public record Variant(String study, String label, Double paperMean, Map<SensitivityMode, List<JobOutcome>> rows,
                          List<JobOutcome> reprofiled, List<WorkloadEstimate> estimates) {
        public Variant {
            rows = Map.copyOf(rows);
            reprofiled = List.copyOf(reprofiled);
            estimates = List.copyOf(estimates);
        }

        /** The geometric-mean speedup of Saba on the table profiled again in the variant, NaN if not run. */
        public double reprofiledMean() {
            return reprofiled.isEmpty() ? Double.NaN : Speedups.allJobs(reprofiled);
        }

        /** The geometric-mean speedup under a mode, NaN if the mode was not run. */
        public double mean(SensitivityMode mode) {
            List<JobOutcome> r = rows.get(mode);
            return r == null ? Double.NaN : Speedups.allJobs(r);
        }
    }

    /** Slowdowns at the shares where drift is judged ({@link ModelDrift#SHARES}: 25 % and 50 %). */
    public record AtShares(double at25, double at50) {
        static AtShares of(SensitivityModel m) {
            return new AtShares(m.slowdown(ModelDrift.SHARES[0]), m.slowdown(ModelDrift.SHARES[1]));
        }

        static AtShares of(List<Sample> samples) {
            double[] d = new double[ModelDrift.SHARES.length];
            for (int i = 0; i < d.length; i++) {
                double percent = 100 * ModelDrift.SHARES[i];
                d[i] = samples.stream().filter(x -> x.bandwidthPercent() == percent).findFirst().orElseThrow()
                        .slowdown();
            }
            return new AtShares(d[0], d[1]);
        }
    }

    /**
     * What the paper's answer to drift would give, as a reference beside the estimates: Saba on a table profiled
     * again in the variant (each workload alone on the variant's servers and dataset, fitted with the table's
     * degree). The label {@code fig9.csv} gives its rows.
     */
    public static final String REPROFILED = "reprofiled";

    /**
     * One workload in one variant: what its units taught the controller, against its true curve there.
     *
     * @param units    units observed in the learning run
     * @param estimate the online estimate (Φ and its error)
     * @param drifting whether the controller flagged the workload as drifting from the table
     * @param truth    the workload alone on the variant's servers and dataset, throttled (its profile there)
     * @param table    the static table's model (profiled at 1x on 8 servers)
     * @param online   the model {@code sensitivity: online} put in force (the table's until 3 units)
     * @param blended  the model {@code sensitivity: blended} put in force
     */
    public record WorkloadEstimate(String workload, int units, SensitivityEstimate estimate, boolean drifting,
                                   AtShares truth, AtShares table, AtShares online, AtShares blended) {
    }

    private SensitivityStudies() {
    }

    /**
     * @param model      the tables of the drift studies (a, b) and their re-profiled references: the campaign's
     *                   choice (auto, as {@code saba profile}); the degree study (c) is the paper's polynomial of
     *                   each degree
     * @param mechanisms what every run of every variant models beyond ideal fluid sharing (the profiles do not:
     *                   each runs a workload alone)
     */
    public static List<Variant> run(int threads, java.io.PrintStream progress, ModelChoice model,
                                    Mechanisms mechanisms) {
        List<WorkloadSpec> workloads = new ArrayList<>(HibenchCatalog.specs(Networks.testbed().hostLinkRate())
                .values());
        Map<ModelChoice, ControllerPlanner> sabaByModel = new LinkedHashMap<>();
        List<ModelChoice> models = new ArrayList<>(List.of(model));
        for (int k = 1; k <= 3; k++) {
            models.add(ModelChoice.paper(k));
        }
        for (ModelChoice m : models) {
            SensitivityTable t = new SimulatedProfiler(Networks.testbed(), m).profile(workloads);
            sabaByModel.put(m, ControllerPlanner.centralised(t, new CanonicalCachingSolver(new MinSlowdownSolver()),
                    LevelAssigner.INFINIBAND_LEVELS, 8, 1.0));
        }
        record Task(String study, String label, Double paper, int servers, double scale, ModelChoice model,
                    boolean drift) {
        }
        List<Task> tasks = new ArrayList<>();
        for (double d : new double[] {0.1, 1, 10}) {
            tasks.add(new Task("9a dataset", d + "x", PaperFigures.FIG9A.get(d), 8, d, model, true));
        }
        for (double x : new double[] {0.5, 1, 2, 3, 4}) {
            tasks.add(new Task("9b nodes", x + "x", PaperFigures.FIG9B.get(x), (int) Math.round(8 * x), 1, model,
                    true));
        }
        for (int k = 1; k <= 3; k++) {
            tasks.add(new Task("9c degree", "k=" + k, PaperFigures.FIG9C.get(k), 8, 1, ModelChoice.paper(k), false));
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
                    Variant v = t.drift() ? withEstimates(t.study(), t.label(), t.paper(), network, jobs,
                            sabaByModel.get(t.model()), t.model(), mechanisms)
                            : new Variant(t.study(), t.label(), t.paper(), Map.of(SensitivityMode.TABLE,
                                    PairedRun.run(0, network, jobs, PerFlowMaxMinPolicy.FACTORY,
                                            SabaPolicy.factory(sabaByModel.get(t.model())), mechanisms)), List.of(),
                                    List.of());
                    bar.step();
                    return v;
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

    /**
     * One drift variant under the baseline, Saba on the table (the learning run), and Saba on what each of
     * {@code online} and {@code blended} learnt from that run.
     */
    static Variant withEstimates(String study, String label, Double paper, FlowNetwork network, List<JobSpec> jobs,
                                 ControllerPlanner table, ModelChoice model, Mechanisms mechanisms) {
        SimResult baseline = mechanisms.simulation(network, jobs, PerFlowMaxMinPolicy.FACTORY).run();
        Simulation learning = mechanisms.policySimulation(network, jobs, SabaPolicy.factory(table)).traceStageRuns();
        Map<SensitivityMode, List<JobOutcome>> rows = new EnumMap<>(SensitivityMode.class);
        rows.put(SensitivityMode.TABLE, outcomes(jobs, baseline, learning.run()));
        Map<SensitivityMode, RunLearning> learnt = new EnumMap<>(SensitivityMode.class);
        for (SensitivityMode mode : List.of(SensitivityMode.ONLINE, SensitivityMode.BLENDED)) {
            RunLearning l = RunLearning.of(mode, table.catalog(), learning.stageRuns());
            learnt.put(mode, l);
            PolicyFactory saba = SabaPolicy.factory(table.withModels(l.inForce()));
            rows.put(mode, outcomes(jobs, baseline, mechanisms.policySimulation(network, jobs, saba).run()));
        }
        List<WorkloadEstimate> estimates = new ArrayList<>();
        Map<String, SensitivityModel> reprofiled = new LinkedHashMap<>();
        SimulatedProfiler profiler = new SimulatedProfiler(network, model);
        for (JobSpec j : jobs) {
            String w = SensitivityTable.key(j.workload().name());
            List<Sample> profile = profiler.samples(j);
            reprofiled.put(w, profiler.fit(profile).chosen().model());
            WorkloadEstimateView online = learnt.get(SensitivityMode.ONLINE).views().get(w);
            estimates.add(new WorkloadEstimate(w, online == null ? 0 : online.estimate().observations(),
                    online == null ? null : online.estimate(), online != null && online.drifting(),
                    AtShares.of(profile), AtShares.of(table.catalog().modelOf(w)),
                    AtShares.of(learnt.get(SensitivityMode.ONLINE).modelOf(w, table.catalog())),
                    AtShares.of(learnt.get(SensitivityMode.BLENDED).modelOf(w, table.catalog()))));
        }
        List<JobOutcome> again = outcomes(jobs, baseline, mechanisms.policySimulation(network, jobs,
                SabaPolicy.factory(table.withModels(reprofiled))).run());
        return new Variant(study, label, paper, rows, again, estimates);
    }

    private static List<JobOutcome> outcomes(List<JobSpec> jobs, SimResult baseline, SimResult policy) {
        List<JobOutcome> out = new ArrayList<>(jobs.size());
        for (JobSpec j : jobs) {
            out.add(new JobOutcome(0, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                    baseline.completionSeconds().get(j.id()), policy.completionSeconds().get(j.id())));
        }
        return out;
    }

    public static String report(List<Variant> variants) {
        StringBuilder s = new StringBuilder("Fig. 9  mean speedup of Saba over per-flow max-min (geometric, 10 jobs);"
                + " Saba on the static table (profiled at 1x, 8 servers)\n        and on what sensitivity: online"
                + " / blended learnt in one run of the variant (the table run)\n");
        s.append(String.format(Locale.ROOT, "%-11s %-7s %6s %6s %6s %7s   %s%n", "study", "variant", "paper",
                "table", "online", "blended", "reference: the table profiled again in the variant"));
        for (Variant v : variants) {
            s.append(String.format(Locale.ROOT, "%-11s %-7s %6s %6.2f %6s %7s   %s%n", v.study(), v.label(),
                    v.paperMean() == null ? "-" : fmt(v.paperMean()), v.mean(SensitivityMode.TABLE),
                    fmt(v.mean(SensitivityMode.ONLINE)), fmt(v.mean(SensitivityMode.BLENDED)),
                    fmt(v.reprofiledMean())));
        }
        s.append("\nper workload, speedup under table / online / blended\n");
        for (Variant v : variants) {
            StringBuilder per = new StringBuilder();
            Map<String, Double> tab = Speedups.perWorkload(v.rows().get(SensitivityMode.TABLE));
            Map<String, Double> onl = v.rows().containsKey(SensitivityMode.ONLINE)
                    ? Speedups.perWorkload(v.rows().get(SensitivityMode.ONLINE)) : Map.of();
            Map<String, Double> bl = v.rows().containsKey(SensitivityMode.BLENDED)
                    ? Speedups.perWorkload(v.rows().get(SensitivityMode.BLENDED)) : Map.of();
            tab.forEach((w, x) -> per.append(String.format(Locale.ROOT, " %s %.2f", w, x))
                    .append(onl.containsKey(w) ? String.format(Locale.ROOT, "/%.2f/%.2f", onl.get(w), bl.get(w)) : ""));
            s.append(String.format(Locale.ROOT, "%-11s %-7s %s%n", v.study(), v.label(), per));
        }
        s.append("\nthe estimates: mean |error| of the slowdown at 25 % against the workload's true curve in the"
                + " variant;\nunits per workload; workloads the controller flagged as drifting from the table\n");
        s.append(String.format(Locale.ROOT, "%-11s %-7s %6s %6s %6s %7s %6s  %s%n", "study", "variant", "table",
                "estim.", "online", "blended", "units", "drifting"));
        for (Variant v : variants) {
            if (v.estimates().isEmpty()) {
                continue;
            }
            double[] err = new double[4];
            List<String> drifting = new ArrayList<>();
            int minUnits = Integer.MAX_VALUE;
            int maxUnits = 0;
            for (WorkloadEstimate e : v.estimates()) {
                double truth = e.truth().at25();
                err[0] += Math.abs(e.table().at25() - truth) / truth;
                err[1] += e.estimate() == null ? 0 : Math.abs(e.estimate().slowdown(0.25) - truth) / truth;
                err[2] += Math.abs(e.online().at25() - truth) / truth;
                err[3] += Math.abs(e.blended().at25() - truth) / truth;
                minUnits = Math.min(minUnits, e.units());
                maxUnits = Math.max(maxUnits, e.units());
                if (e.drifting()) {
                    drifting.add(e.workload());
                }
            }
            int n = v.estimates().size();
            s.append(String.format(Locale.ROOT, "%-11s %-7s %5.0f%% %5.0f%% %5.0f%% %6.0f%% %6s  %s%n", v.study(),
                    v.label(), 100 * err[0] / n, 100 * err[1] / n, 100 * err[2] / n, 100 * err[3] / n,
                    minUnits + "-" + maxUnits, drifting.isEmpty() ? "-" : String.join(" ", drifting)));
        }
        return s.toString();
    }

    private static String fmt(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.2f", x);
    }

    private static void csvRows(StringBuilder csv, Variant v, String sensitivity, List<JobOutcome> rows) {
        for (JobOutcome o : rows) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%.6f,%.6f,%.6f%n", v.study(), v.label(), sensitivity,
                    o.workload(), o.baselineSeconds(), o.policySeconds(), o.speedup()));
        }
    }

    public static void writeFigures(Path out, List<Variant> variants) {
        StringBuilder csv = new StringBuilder("study,variant,sensitivity,workload,baseline_s,saba_s,speedup\n");
        for (Variant v : variants) {
            for (SensitivityMode mode : MODES) {
                csvRows(csv, v, mode.label(), v.rows().getOrDefault(mode, List.of()));
            }
            csvRows(csv, v, REPROFILED, v.reprofiled());
        }
        OutputFolder.write(out.resolve("fig9.csv"), csv.toString());
        StringBuilder est = new StringBuilder("study,variant,workload,units,network_share,standard_error,drifting,"
                + "truth_d25,truth_d50,table_d25,table_d50,estimate_d25,estimate_d50,online_d25,online_d50,"
                + "blended_d25,blended_d50\n");
        for (Variant v : variants) {
            for (WorkloadEstimate e : v.estimates()) {
                SensitivityEstimate x = e.estimate();
                est.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.6f,%.6f,%b,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,"
                                + "%.6f,%.6f,%.6f,%.6f%n", v.study(), v.label(), e.workload(), e.units(),
                        x == null ? Double.NaN : x.networkShare(), x == null ? Double.NaN : x.standardError(),
                        e.drifting(), e.truth().at25(), e.truth().at50(), e.table().at25(), e.table().at50(),
                        x == null ? Double.NaN : x.slowdown(0.25), x == null ? Double.NaN : x.slowdown(0.5),
                        e.online().at25(), e.online().at50(), e.blended().at25(), e.blended().at50()));
            }
        }
        OutputFolder.write(out.resolve("fig9-estimates.csv"), est.toString());
        for (String study : List.of("9a dataset", "9b nodes", "9c degree")) {
            List<String> labels = new ArrayList<>();
            Map<String, List<Double>> series = new LinkedHashMap<>();
            series.put("paper", new ArrayList<>());
            for (Variant v : variants) {
                if (!v.study().equals(study)) {
                    continue;
                }
                labels.add(v.label());
                series.get("paper").add(v.paperMean() == null ? Double.NaN : v.paperMean());
                for (SensitivityMode mode : MODES) {
                    if (v.rows().containsKey(mode)) {
                        series.computeIfAbsent("Saba, " + mode.label(), k -> new ArrayList<>()).add(v.mean(mode));
                    }
                }
                if (!v.reprofiled().isEmpty()) {
                    series.computeIfAbsent("Saba, table profiled in the variant", k -> new ArrayList<>())
                            .add(v.reprofiledMean());
                }
            }
            Plots.bars(out.resolve("fig" + study.substring(0, 2) + ".png"), "Fig. " + study, "mean speedup",
                    labels, series);
        }
    }
}
