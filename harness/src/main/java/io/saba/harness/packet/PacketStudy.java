package io.saba.harness.packet;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.stats.Bootstrap;
import io.saba.core.stats.Stats;
import io.saba.harness.csv.CsvLine;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.campaign.JobOutcome;
import io.saba.core.progress.Progress;
import io.saba.harness.campaign.Speedups;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.IdealMaxMinPolicy;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.policy.SabaPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SyntheticCatalog;
import io.saba.harness.sim.workload.WorkloadCalibration;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The scale study (paper §8.4, Figs. 10–11) in the packet-level model: the paper's 20 synthetic workloads, shrunk
 * in time, placed at random on a small leaf-spine, run on the same placement under each {@link VlMode} (Saba with
 * the co-run predictor's weights, as fig8-packet plans it), Saba with the paper's Eq. 2 weights, and Saba's levels
 * with equal weights; each job's speedup over the shared VL. With {@link PacketStudyConfig#fluid()} the fluid
 * simulator runs the same jobs on the same paths (per-flow max-min, per-application fair, Saba), which is the check
 * of the fluid model's conclusions. Saba's models and traffic records come from the packet-level profiler, and both
 * simulators' Saba plan from them.
 */
public final class PacketStudy {
    /** The scheme that runs every job by itself: the bound on what separating applications can give. */
    static final String ALONE = "packet alone (each job by itself)";
    static final String FLUID_ALONE = "fluid alone (each job by itself)";
    /** The baseline of the packet schemes. */
    static final String SHARED = "packet shared";
    static final String VL_PER_APP = "packet vl-per-app";
    /** Saba as the campaigns plan it: the co-run predictor's weights ({@code allocation: corun}). */
    static final String SABA = "packet saba";
    /** Saba with the paper's weights, Eq. 2 on the static slowdown curves. */
    static final String SABA_EQ2 = "packet saba-eq2";
    /**
     * Saba's levels and each port's level → VL map, every VL the port uses weighted equally: set beside Saba, what
     * its weights add; set beside the VL per application, what its grouping adds.
     */
    static final String SABA_EQUAL = "packet saba-equal";
    /**
     * The pairs the report sets side by side, (over, scheme): Saba against blind separation, its grouping and its
     * weights apart, and its co-run weights against the paper's Eq. 2.
     */
    private static final List<List<String>> PAIRS = List.of(List.of(VL_PER_APP, SABA), List.of(VL_PER_APP, SABA_EQUAL),
            List.of(SABA_EQUAL, SABA), List.of(SABA_EQUAL, SABA_EQ2), List.of(SABA_EQ2, SABA));
    /** The seed of the paired rows' bootstrap resampling, so a report is reproducible from its rows. */
    private static final long BOOTSTRAP_SEED = 1;
    /** Levels Saba plans over (InfiniBand's 16 SLs). */
    static final int LEVELS = 16;

    /** A scheme compared with a baseline: per-job rows of each seed. */
    public record Scheme(String name, String baseline, Map<Long, List<JobOutcome>> rowsBySeed) {
        /** Geometric-mean speedup over the jobs of each seed, in seed order. */
        public List<Double> perSeed() {
            List<Double> out = new ArrayList<>();
            rowsBySeed.values().forEach(rows -> out.add(Speedups.allJobs(rows)));
            return out;
        }
    }

    /**
     * @param schemes        packet modes beside the shared VL, then (if asked) fluid schemes beside per-flow max-min
     * @param packetOverFluid per seed, the geometric mean over jobs of the packet shared-VL time over the fluid
     *                       per-flow max-min time (how much the lossless baseline loses to an ideal one); empty
     *                       without the fluid runs
     * @param wallSeconds    wall time of the whole study
     * @param cpuSeconds     CPU time of the process during it
     * @param packets        data packets simulated, all packet runs together
     * @param profileSeconds wall time of the packet-level profiling (part of wallSeconds)
     */
    public record Result(PacketStudyConfig config, List<Scheme> schemes, Map<Long, Double> packetOverFluid,
                         double wallSeconds, double cpuSeconds, long packets, double profileSeconds) {
    }

    private final PacketStudyConfig cfg;
    private final LeafSpineNetwork network;
    private final Map<String, WorkloadSpec> catalog = new LinkedHashMap<>();

    public PacketStudy(PacketStudyConfig cfg) {
        this.cfg = cfg;
        this.network = new LeafSpineNetwork(cfg.shape(), cfg.params().linkGbps());
        for (WorkloadSpec w : workloads(cfg.timeScale(), cfg.hostsPerLeaf(), network.hostLinkRate())) {
            catalog.put(w.name(), w);
        }
    }

    /**
     * The paper's 20 synthetic workloads ({@link SyntheticCatalog}) with every time multiplied by {@code timeScale}
     * (their 60–300 s alone become 0.6–3 ms at 1e-5): the same shuffle shares, overlaps and rounds, so the same
     * sensitivities, with bytes per round shrunk in proportion.
     */
    public static List<WorkloadSpec> workloads(double timeScale, int profiledNodes, double lineRate) {
        List<WorkloadSpec> out = new ArrayList<>();
        for (WorkloadCalibration c : SyntheticCatalog.calibrations()) {
            out.add(new WorkloadCalibration(c.name(), c.profiledSeconds() * timeScale, c.shuffleShare(),
                    c.overlap(), c.stageRuns()).toSpec(profiledNodes, lineRate));
        }
        return out;
    }

    /**
     * One setup: {@link PacketStudyConfig#jobs()} jobs, job k running workload k of a seeded permutation of the 20
     * (again from the start past 20), each on {@code instances} distinct hosts. Hosts are filled evenly: a job takes
     * the hosts with the most free slots, at random among equals, so with one slot per host it is a random
     * partition of the hosts (the paper's one workload per server) and with k slots every host ends with k.
     */
    public List<JobSpec> draw(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<WorkloadSpec> ws = new ArrayList<>(catalog.values());
        for (int i = ws.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            WorkloadSpec t = ws.get(i);
            ws.set(i, ws.get(j));
            ws.set(j, t);
        }
        int[] free = new int[cfg.hosts()];
        java.util.Arrays.fill(free, cfg.perHost());
        List<JobSpec> jobs = new ArrayList<>();
        for (int k = 0; k < cfg.jobs(); k++) {
            long[] key = new long[free.length];
            List<Integer> order = new ArrayList<>();
            for (int h = 0; h < free.length; h++) {
                key[h] = rnd.nextLong();
                order.add(h);
            }
            order.sort(Comparator.<Integer>comparingInt(h -> -free[h]).thenComparingLong(h -> key[h]));
            List<Integer> chosen = new ArrayList<>(order.subList(0, cfg.instances()));
            chosen.sort(null);
            List<String> hosts = new ArrayList<>();
            for (int h : chosen) {
                free[h]--;
                hosts.add(LeafSpine.hostName(h));
            }
            WorkloadSpec w = ws.get(k % ws.size());
            jobs.add(new JobSpec("j" + k + "-" + w.name(), w, 1.0, hosts));
        }
        return jobs;
    }

    /** Runs every seed under every mode (and the fluid schemes), {@code threads} runs at a time. */
    public Result run(PrintStream progress) {
        long wall0 = System.nanoTime();
        double cpu0 = processCpuSeconds();
        Map<Long, List<JobSpec>> setups = new LinkedHashMap<>();
        Map<String, WorkloadSpec> used = new TreeMap<>();
        for (long seed : cfg.seeds()) {
            List<JobSpec> jobs = draw(seed);
            setups.put(seed, jobs);
            jobs.forEach(j -> used.put(j.workload().name(), j.workload()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(cfg.threads());
        try {
            SensitivityTable table = profile(used, pool, progress);
            double profileSeconds = (System.nanoTime() - wall0) / 1e9;
            ControllerPlanner saba = planner(table, Allocation.CORUN);
            VlSetup vlSetup = new VlSetup(cfg.vls(), cfg.tableEntries(), saba, cfg.separateAt());
            Map<String, Function<List<JobSpec>, RoundDriver.Result>> packet = new LinkedHashMap<>();
            packet.put(SHARED, jobs -> runPacket(VlMode.SHARED, jobs, vlSetup));
            packet.put(VL_PER_APP, jobs -> runPacket(VlMode.VL_PER_APPLICATION, jobs, vlSetup));
            packet.put(SABA, jobs -> runPacket(VlMode.SABA, jobs, vlSetup));
            VlSetup eq2 = new VlSetup(cfg.vls(), cfg.tableEntries(), planner(table, Allocation.EQ2),
                    cfg.separateAt());
            packet.put(SABA_EQ2, jobs -> runPacket(VlMode.SABA, jobs, eq2));
            packet.put(SABA_EQUAL, jobs -> runPacket(VlMode.SABA, jobs, vlSetup.withEqualSabaWeights()));
            packet.put(ALONE, jobs -> runAlone(jobs, vlSetup));
            Map<String, PolicyFactory> fluid = new LinkedHashMap<>();
            if (cfg.fluid()) {
                fluid.put("fluid per-flow max-min", PerFlowMaxMinPolicy.FACTORY);
                fluid.put("fluid ideal max-min (per application)", IdealMaxMinPolicy.FACTORY);
                fluid.put("fluid saba", SabaPolicy.factory(saba));
            }
            int runs = setups.size() * (packet.size() + fluid.size() + (cfg.fluid() ? 1 : 0));
            Progress bar = new Progress(progress, "packet-level runs", runs, 0);
            Map<Long, Map<String, Future<RoundDriver.Result>>> futures = new LinkedHashMap<>();
            for (Map.Entry<Long, List<JobSpec>> e : setups.entrySet()) {
                Map<String, Future<RoundDriver.Result>> byScheme = new LinkedHashMap<>();
                packet.forEach((name, scheme) -> byScheme.put(name, pool.submit(() -> {
                    RoundDriver.Result r = scheme.apply(e.getValue());
                    bar.step();
                    return r;
                })));
                fluid.forEach((name, pf) -> byScheme.put(name, pool.submit(() -> {
                    var r = new Simulation(network, e.getValue(), pf).run();
                    bar.step();
                    return new RoundDriver.Result(r.completionSeconds(), 0);
                })));
                if (cfg.fluid()) {
                    byScheme.put(FLUID_ALONE, pool.submit(() -> {
                        Map<String, Double> times = new LinkedHashMap<>();
                        for (JobSpec j : e.getValue()) {
                            times.putAll(new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).run()
                                    .completionSeconds());
                        }
                        bar.step();
                        return new RoundDriver.Result(times, 0);
                    }));
                }
                futures.put(e.getKey(), byScheme);
            }
            Map<String, Map<Long, List<JobOutcome>>> rows = new LinkedHashMap<>();
            Map<Long, Double> packetOverFluid = new LinkedHashMap<>();
            long packets = 0;
            for (Map.Entry<Long, Map<String, Future<RoundDriver.Result>>> e : futures.entrySet()) {
                long seed = e.getKey();
                List<JobSpec> jobs = setups.get(seed);
                Map<String, RoundDriver.Result> got = new LinkedHashMap<>();
                for (Map.Entry<String, Future<RoundDriver.Result>> f : e.getValue().entrySet()) {
                    got.put(f.getKey(), f.getValue().get());
                    packets += got.get(f.getKey()).packets();
                }
                RoundDriver.Result shared = got.get(SHARED);
                for (Map.Entry<String, RoundDriver.Result> g : got.entrySet()) {
                    String name = g.getKey();
                    boolean isFluid = !name.startsWith("packet ");
                    RoundDriver.Result base = isFluid ? got.get("fluid per-flow max-min") : shared;
                    if (g.getValue() == base) {
                        continue;
                    }
                    rows.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(seed,
                            outcomes(seed, jobs, base, g.getValue()));
                }
                if (cfg.fluid()) {
                    packetOverFluid.put(seed, Speedups.allJobs(outcomes(seed, jobs, shared,
                            got.get("fluid per-flow max-min"))));
                }
            }
            List<Scheme> schemes = new ArrayList<>();
            rows.forEach((name, bySeed) -> schemes.add(new Scheme(name, name.startsWith("packet ") ? SHARED
                    : "fluid per-flow max-min", bySeed)));
            return new Result(cfg, schemes, packetOverFluid, (System.nanoTime() - wall0) / 1e9,
                    processCpuSeconds() - cpu0, packets, profileSeconds);
        } catch (Exception e) {
            throw new IllegalStateException("packet-level study failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
    }

    private SensitivityTable profile(Map<String, WorkloadSpec> used, ExecutorService pool, PrintStream progress)
            throws Exception {
        PacketProfiler profiler = new PacketProfiler(cfg.params(), cfg.policy(), cfg.model());
        Progress bar = new Progress(progress, "packet-level profiles (alone on one leaf, 7 levels)", used.size(), 0);
        Map<String, Future<io.saba.core.table.TableEntry>> fs = new LinkedHashMap<>();
        used.forEach((name, w) -> fs.put(name, pool.submit(() -> {
            var entry = profiler.entry(w);
            bar.step();
            return entry;
        })));
        SensitivityTable table = SensitivityTable.empty().withNote("packet-level profiler, model " + cfg.model()
                + ", levels 5-100 %, alone on one leaf, traffic records from the model");
        for (Future<io.saba.core.table.TableEntry> f : fs.values()) {
            table = table.with(f.get());
        }
        return table;
    }

    /** The controller's pipeline on {@code table}: Saba's levels and queues, weights by {@code allocation}. */
    private ControllerPlanner planner(SensitivityTable table, Allocation allocation) {
        return ControllerPlanner.centralised(table, new CanonicalCachingSolver(new MinSlowdownSolver()), allocation,
                LEVELS, cfg.vls() - 1, 1.0);
    }

    /** Each job by itself on the fabric, on its own hosts: what no separation of applications can beat. */
    private RoundDriver.Result runAlone(List<JobSpec> jobs, VlSetup vlSetup) {
        Map<String, Double> times = new LinkedHashMap<>();
        long packets = 0;
        for (JobSpec j : jobs) {
            RoundDriver.Result r = runPacket(VlMode.SHARED, List.of(j), vlSetup);
            times.putAll(r.completionSeconds());
            packets += r.packets();
        }
        return new RoundDriver.Result(times, packets);
    }

    private RoundDriver.Result runPacket(VlMode mode, List<JobSpec> jobs, VlSetup vlSetup) {
        LeafSpine.Fabric f = cfg.shape().build(cfg.params(), cfg.policy(), cfg.vls());
        if (cfg.portBufferBytes() > 0) {
            int vlsInUse = mode == VlMode.SHARED ? 1 : cfg.vls();
            int perVl = cfg.portBufferBytes() / vlsInUse;
            if (perVl < cfg.params().dataWireBytes(cfg.params().mtuBytes())) {
                throw new IllegalArgumentException(cfg.portBufferBytes() + " B per port over " + vlsInUse
                        + " VLs leaves less than one MTU packet per VL");
            }
            for (int vl = 0; vl < vlsInUse; vl++) {
                f.resizeBuffers(vl, perVl);
            }
        }
        Map<String, Integer> sl = vlSetup.apply(mode, f, jobs).slOf();
        return new RoundDriver(f, jobs, sl).run();
    }

    private static List<JobOutcome> outcomes(long seed, List<JobSpec> jobs, RoundDriver.Result base,
                                             RoundDriver.Result scheme) {
        List<JobOutcome> out = new ArrayList<>();
        for (JobSpec j : jobs) {
            out.add(new JobOutcome((int) seed, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                    base.completionSeconds().get(j.id()), scheme.completionSeconds().get(j.id())));
        }
        return out;
    }

    static double processCpuSeconds() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() / 1e9 : Double.NaN;
    }


    /** The comparison: per scheme the median and range over seeds of the per-seed mean speedups, then per seed. */
    public static String report(Result r) {
        StringBuilder s = new StringBuilder();
        s.append("fig10-packet: ").append(r.config().describe()).append('\n');
        s.append("speedup = baseline time / scheme time per job; per seed the geometric mean over its jobs\n\n");
        s.append(String.format(Locale.ROOT, "%-40s %-24s %7s %7s %7s   %s%n", "scheme", "over", "median", "min",
                "max", "per seed (" + r.config().seeds() + ")"));
        r.schemes().forEach(sc -> row(s, sc));
        Map<String, Scheme> byName = new LinkedHashMap<>();
        r.schemes().forEach(sc -> byName.put(sc.name(), sc));
        s.append("\nSaba's plan part by part, paired on the same jobs (speedup = time under the second / time under "
                + "the first): the geometric mean over seeds [95 % bootstrap interval], then each seed\n");
        for (List<String> pair : PAIRS) {
            Scheme over = byName.get(pair.get(0));
            Scheme scheme = byName.get(pair.get(1));
            if (over != null && scheme != null) {
                List<Double> ps = paired(over, scheme).perSeed();
                s.append(String.format(Locale.ROOT, "%-40s %-24s %-23s %s%n", scheme.name(), over.name(),
                        Bootstrap.geomean95(ps, BOOTSTRAP_SEED), eachSeed(ps)));
            }
        }
        if (!r.packetOverFluid().isEmpty()) {
            List<Double> v = new ArrayList<>(r.packetOverFluid().values());
            v.sort(null);
            s.append(String.format(Locale.ROOT, "%nthe lossless baseline against the ideal one: packet shared-VL time / "
                    + "fluid per-flow max-min time, geometric mean over jobs: median %.3f (%.3f-%.3f)%n", median(v),
                    v.get(0), v.get(v.size() - 1)));
        }
        long firstSeed = r.config().seeds().get(0);
        s.append(String.format(Locale.ROOT, "%nper job, seed %d (times in µs under the baseline of each simulator, "
                + "then speedups)%n", firstSeed));
        s.append(String.format(Locale.ROOT, "%-14s %-7s %3s", "job", "workld", "n"));
        for (Scheme sc : r.schemes()) {
            s.append(String.format(Locale.ROOT, " %13s", shortName(sc.name())));
        }
        s.append(String.format(Locale.ROOT, " %12s %12s%n", "packet µs", "fluid µs"));
        List<JobOutcome> first = r.schemes().get(0).rowsBySeed().get(firstSeed);
        for (int i = 0; i < first.size(); i++) {
            JobOutcome o = first.get(i);
            s.append(String.format(Locale.ROOT, "%-14s %-7s %3d", o.job(), o.workload(), o.instances()));
            double fluidBase = Double.NaN;
            for (Scheme sc : r.schemes()) {
                JobOutcome x = sc.rowsBySeed().get(firstSeed).get(i);
                s.append(String.format(Locale.ROOT, " %13.3f", x.speedup()));
                if (!sc.name().startsWith("packet ")) {
                    fluidBase = x.baselineSeconds();
                }
            }
            s.append(String.format(Locale.ROOT, " %12.1f %12.1f%n", o.baselineSeconds() * 1e6, fluidBase * 1e6));
        }
        s.append(String.format(Locale.ROOT, "%n%d packets simulated; wall %.1f s (profiling %.1f s), CPU %.1f s, "
                + "%d thread%s%n", r.packets(), r.wallSeconds(), r.profileSeconds(), r.cpuSeconds(),
                r.config().threads(), r.config().threads() == 1 ? "" : "s"));
        return s.toString();
    }

    /** One line of the report: a scheme's per-seed speedups, their median and range. */
    private static void row(StringBuilder s, Scheme sc) {
        List<Double> ps = sc.perSeed();
        List<Double> sorted = new ArrayList<>(ps);
        sorted.sort(null);
        s.append(String.format(Locale.ROOT, "%-40s %-24s %7.3f %7.3f %7.3f  %s%n", sc.name(), sc.baseline(),
                median(sorted), sorted.get(0), sorted.get(sorted.size() - 1), eachSeed(ps)));
    }

    /** Each seed's value, in seed order. */
    private static String eachSeed(List<Double> perSeed) {
        StringBuilder each = new StringBuilder();
        perSeed.forEach(x -> each.append(String.format(Locale.ROOT, " %.3f", x)));
        return each.toString();
    }

    /** {@code scheme} with {@code over} as its baseline: both times of every job are each scheme's own. */
    static Scheme paired(Scheme over, Scheme scheme) {
        Map<Long, List<JobOutcome>> bySeed = new LinkedHashMap<>();
        scheme.rowsBySeed().forEach((seed, rows) -> {
            List<JobOutcome> base = over.rowsBySeed().get(seed);
            List<JobOutcome> out = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                JobOutcome o = rows.get(i);
                out.add(new JobOutcome(o.setup(), o.job(), o.workload(), o.datasetScale(), o.instances(),
                        base.get(i).policySeconds(), o.policySeconds()));
            }
            bySeed.put(seed, out);
        });
        return new Scheme(scheme.name(), over.name(), bySeed);
    }

    private static String shortName(String scheme) {
        return switch (scheme) {
            case ALONE -> "pkt alone";
            case FLUID_ALONE -> "fluid alone";
            case SABA_EQUAL -> "pkt saba-eqw";
            case "fluid ideal max-min (per application)" -> "fluid per-app";
            default -> scheme.replace("packet ", "pkt ");
        };
    }

    /** {@link Stats#median}. */
    static double median(List<Double> values) {
        return Stats.median(values);
    }

    /** Per job, seed and scheme: both times and the speedup. */
    public static String csv(Result r) {
        StringBuilder s = new StringBuilder(CsvLine.of("seed", "scheme", "baseline", "job", "workload", "instances",
                "baseline_s", "scheme_s", "speedup"));
        for (Scheme sc : r.schemes()) {
            sc.rowsBySeed().forEach((seed, rows) -> rows.forEach(o -> s.append(CsvLine.of(String.valueOf(seed),
                    sc.name(), sc.baseline(), o.job(), o.workload(), Integer.toString(o.instances()),
                    String.format(Locale.ROOT, "%.9f", o.baselineSeconds()),
                    String.format(Locale.ROOT, "%.9f", o.policySeconds()),
                    String.format(Locale.ROOT, "%.6f", o.speedup())))));
        }
        return s.toString();
    }
}
