package io.saba.harness.packet;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.ModelChoice;
import io.saba.core.progress.Progress;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import io.saba.controller.fabric.infiniband.Sl2Vl;
import io.saba.harness.campaign.DrawnJob;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.campaign.SetupGenerator;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.campaign.TestbedSetups;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.CongestionControl;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The paper's Fig. 8 on a model of its own fabric ({@code saba campaign --figure fig8-packet}): 32 hosts behind one
 * lossless InfiniBand switch (the RPerf switch model: credits per VL, input buffers per port and VL, HCAs serving
 * their queue pairs round robin within a VL), 16 jobs a setup drawn by {@link SetupGenerator} with the paper's rules,
 * so setup i of seed S holds the same jobs as setup i of {@code --figure fig8} with seed S. Every setup runs under
 * each {@link Fig8Scheme}: the shared VL, a control that separates applications over the same VLs without knowing
 * their sensitivity, Saba's levels and weights (co-run and Eq. 2) written as the InfiniBand backend writes them, and
 * each job alone; the fluid simulator's pair on the same draws is run beside them.
 *
 * <p>The ten workloads are {@link HibenchCatalog}'s, every time multiplied by the time scale (bytes shrink with it,
 * so sensitivities stay), and Saba plans on their profiles in this packet model ({@link PacketProfiler}: alone on 8
 * hosts of the switch, seven levels, the family chosen as {@code saba profile} chooses it, with traffic records for
 * the co-run predictor). Rows go to {@code jobs.csv} as setups finish; a rerun on the same folder resumes.
 */
public final class Fig8PacketCampaign {
    /** Hosts behind the switch (paper §8.2: 32 servers on one Mellanox SX6036G). */
    public static final int HOSTS = 32;
    /** Entries of each port's VL arbitration table, as the InfiniBand backend writes them. */
    static final int TABLE_ENTRIES = 8;

    /**
     * @param setups    setups 0 … setups − 1
     * @param seed      the draws' seed (the same as {@code --figure fig8}'s)
     * @param timeScale simulated seconds per second of the workloads' profiled run times
     * @param model     which fitted models the packet profiles may be
     * @param queues    Saba's VLs per port besides VL 0 (the paper's 8)
     * @param threads   setups run at once
     * @param schemes   what every setup runs under (the baseline, {@link Fig8Scheme#SHARED}, always)
     * @param congestionControl the {@link CongestionControl#preset} of {@link Fig8Scheme#SHARED_CC}
     * @param ackEvery  packets per requested ACK ({@link ModelParams#ackEvery}; the paper's HCAs:
     *                  {@link ModelParams#CONNECTX3_ACK_EVERY})
     * @param out       the output folder
     */
    public record Config(int setups, long seed, double timeScale, ModelChoice model, int queues, int threads,
                         Set<Fig8Scheme> schemes, String congestionControl, int ackEvery, WorkloadShapes shapes,
                         Path out) {
        /** With the catalog's workload shapes and the paper's HCAs' ACKs. */
        public Config(int setups, long seed, double timeScale, ModelChoice model, int queues, int threads,
                      Set<Fig8Scheme> schemes, String congestionControl, Path out) {
            this(setups, seed, timeScale, model, queues, threads, schemes, congestionControl,
                    ModelParams.CONNECTX3_ACK_EVERY, WorkloadShapes.HIBENCH, out);
        }

        public Config {
            if (setups < 1 || timeScale <= 0 || queues < 1 || queues > 14 || threads < 1) {
                throw new IllegalArgumentException("fig8-packet needs ≥ 1 setup, a positive time scale, 1-14 queues "
                        + "and ≥ 1 thread; got " + setups + ", " + timeScale + ", " + queues + ", " + threads);
            }
            EnumSet<Fig8Scheme> with = EnumSet.of(Fig8Scheme.SHARED);
            with.addAll(schemes);
            if (with.contains(Fig8Scheme.FLUID_MAX_MIN) != with.contains(Fig8Scheme.FLUID_SABA)) {
                with.add(Fig8Scheme.FLUID_MAX_MIN);
                with.add(Fig8Scheme.FLUID_SABA); // one fluid run gives both
            }
            if (shapes == WorkloadShapes.RECORDED && with.contains(Fig8Scheme.FLUID_MAX_MIN)) {
                throw new IllegalArgumentException("--workloads recorded: the fluid schemes model all-to-all rounds "
                        + "only; leave fluid-max-min and fluid-saba out of --schemes");
            }
            schemes = Collections.unmodifiableSet(with);
            CongestionControl.preset(congestionControl); // refuses an unknown name before anything runs
            ModelParams.paperDefaults().withAckEvery(ackEvery); // refuses fewer than one packet per ACK
        }

        /** What decides the rows: a folder made with another is not resumed. */
        public String fingerprint() {
            return "fig8-packet seed=" + seed + " time-scale=" + timeScale + " model=" + model + " queues=" + queues
                    + (congestionControl.equals("default") ? "" : " congestion-control=" + congestionControl)
                    + (ackEvery == 1 ? "" : " ack-every=" + ackEvery) // folders made before ACKs coalesced: 1
                    + (shapes == WorkloadShapes.HIBENCH ? "" : " workloads=" + shapes.key());
        }

        public String describe() {
            return String.format(java.util.Locale.ROOT, "one switch, %d hosts, 56 Gbit/s, %d VLs for Saba + VL 0, "
                    + "32 KiB per input port and VL, round robin within a VL; %d setups of 16 jobs from seed %d; "
                    + "time scale %.0e; profiles %s; congestion control %s; %s; workloads %s", HOSTS, queues, setups,
                    seed, timeScale, model, congestionControl,
                    ackEvery == 1 ? "an ACK per packet" : "an ACK asked every " + ackEvery + " packets and at a "
                            + "message's end", shapes.key());
        }
    }

    /**
     * @param jobs       every job of every setup below {@code setups}, by setup then job, with its times
     * @param table      the packet profiles Saba planned on
     * @param predictions what the co-run predictor expects of Saba's weights, per job ({@link PredictorCheck})
     * @param seconds    wall time of this invocation
     * @param cpuSeconds the process's CPU time in it
     * @param packets    data packets this invocation simulated
     * @param ranNow     setups with anything run now: a scheme, or only the predictions
     * @param resumed    setups found done in the folder
     */
    public record Result(Fig8PacketJobs jobs, SensitivityTable table, List<PredictorCheck.Row> predictions,
                         double seconds, double cpuSeconds, long packets, int ranNow, int resumed) {
    }

    private final Config cfg;
    private final ModelParams params;
    private final LeafSpine shape = new LeafSpine(1, HOSTS, 1);
    private final LeafSpineNetwork network;
    private final List<WorkloadSpec> workloads;
    private final AtomicLong packets = new AtomicLong();

    public Fig8PacketCampaign(Config cfg) {
        this.cfg = cfg;
        this.params = ModelParams.paperDefaults().withAckEvery(cfg.ackEvery());
        this.network = new LeafSpineNetwork(shape, params.linkGbps());
        this.workloads = cfg.shapes().specs(cfg.timeScale(), network.hostLinkRate());
    }

    /** {@link HibenchCatalog}'s workloads in its order (the draws depend on it), every time scaled. */
    public static List<WorkloadSpec> workloads(double timeScale, double lineRate) {
        return WorkloadShapes.HIBENCH.specs(timeScale, lineRate);
    }

    /** The jobs of setup {@code index}: {@code --figure fig8}'s draw, on the switch's hosts h0 … h31. */
    public List<JobSpec> setup(int index) {
        List<JobSpec> jobs = new ArrayList<>();
        for (DrawnJob<WorkloadSpec> d : new SetupGenerator<>(workloads, network.hosts(), SetupRules.paper(),
                cfg.seed()).setup(index)) {
            jobs.add(new JobSpec(d.id(), d.workload(), d.datasetScale(), d.hosts()));
        }
        return jobs;
    }

    /** Profiles the workloads, then runs what the folder lacks of every setup, {@code threads} setups at a time. */
    public Result run(PrintStream progress) {
        long t0 = System.nanoTime();
        double cpu0 = PacketStudy.processCpuSeconds();
        OutputFolder.prepare(cfg.out(), cfg.fingerprint());
        Fig8PacketCsv csv = new Fig8PacketCsv(cfg.out().resolve("jobs.csv"));
        PredictorCheck predictions = new PredictorCheck(cfg.out());
        int jobsPerSetup = SetupRules.paper().maxJobs();
        Set<String> done = Fig8PacketJobs.done(csv.read(), jobsPerSetup);
        Set<Integer> predicted = cfg.schemes().contains(Fig8Scheme.SABA) ? predictions.done(jobsPerSetup) : null;
        Map<Integer, List<Fig8Scheme>> pending = new TreeMap<>();
        for (int i = 0; i < cfg.setups(); i++) {
            for (Fig8Scheme s : cfg.schemes()) {
                if (!done.contains(Fig8PacketJobs.key(i, s))) {
                    pending.computeIfAbsent(i, k -> new ArrayList<>()).add(s);
                }
            }
            if (predicted != null && !predicted.contains(i)) {
                pending.computeIfAbsent(i, k -> new ArrayList<>()); // only the predictions are missing
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(cfg.threads());
        try {
            SensitivityTable table = profile(pool, progress);
            OutputFolder.write(cfg.out().resolve("sensitivity-table.json"), SensitivityTableCodec.toJson(table));
            Runner runner = new Runner(table);
            Progress bar = new Progress(progress, "fig8-packet setups", cfg.setups(), cfg.setups() - pending.size());
            List<Future<?>> fs = new ArrayList<>();
            pending.forEach((index, schemes) -> fs.add(pool.submit(() -> {
                runner.run(index, schemes, csv);
                if (predicted != null && !predicted.contains(index)) {
                    runner.predict(index, predictions);
                }
                bar.step();
            })));
            for (Future<?> f : fs) {
                f.get();
            }
            Fig8PacketJobs jobs = Fig8PacketJobs.of(csv.read(), cfg.schemes(), cfg.setups(), jobsPerSetup);
            return new Result(jobs, table, predictions.read(), (System.nanoTime() - t0) / 1e9,
                    PacketStudy.processCpuSeconds() - cpu0, packets.get(), pending.size(),
                    cfg.setups() - pending.size());
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("fig8-packet failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("fig8-packet interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private SensitivityTable profile(ExecutorService pool, PrintStream progress)
            throws InterruptedException, java.util.concurrent.ExecutionException {
        PacketProfiler profiler = new PacketProfiler(params, Policy.RR, cfg.model());
        Progress bar = new Progress(progress, "fig8-packet profiles (alone on 8 hosts, 7 levels)", workloads.size(),
                0);
        List<Future<TableEntry>> fs = new ArrayList<>();
        for (WorkloadSpec w : workloads) {
            fs.add(pool.submit(() -> {
                TableEntry e = profiler.entry(w);
                bar.step();
                return e;
            }));
        }
        SensitivityTable table = SensitivityTable.empty().withNote("packet-level profiler, model " + cfg.model()
                + ", levels 5-100 %, alone on 8 hosts of the switch, traffic records from the model");
        for (Future<TableEntry> f : fs) {
            table = table.with(f.get());
        }
        return table;
    }

    /** A job's workload at its dataset scale, as {@link #sized} names it. */
    static String sizedName(JobSpec j) {
        return j.workload().name() + "@" + j.datasetScale();
    }

    /**
     * {@code table} with, for every workload and every one of {@code scales}, an entry named as {@link #sizedName}
     * names a job of it: the same sensitivity curve, and the traffic record stretched in time by the scale (a job's
     * bytes and compute both grow with its dataset, so its rates keep their shape and its run lasts scale times as
     * long). What {@link Fig8Scheme#SABA_SIZED}'s planner knows that Saba's does not.
     */
    static SensitivityTable sized(SensitivityTable table, double[] scales) {
        SensitivityTable out = table;
        for (TableEntry e : table.entries().values()) {
            for (double s : scales) {
                TrafficRecord r = e.traffic() == null ? null
                        : new TrafficRecord(e.traffic().intervalSeconds() * s, e.traffic().utilisation());
                out = out.with(new TableEntry(e.workload() + "@" + s, e.fit(), e.context(), e.selection(), r));
            }
        }
        return out;
    }

    /** Runs one setup under every scheme; shared by the pool's threads (its planners are safe to share). */
    private final class Runner {
        final VlSetup corun;
        final VlSetup eq2;
        /** The controller's pipeline with a level per application ({@code level-per: application}), co-run weights. */
        final VlSetup apps;
        /** The control over every data VL InfiniBand has. */
        final VlSetup allVls;
        final SensitivityTable table;
        /** Saba (corun) planning on a table with an entry per workload and dataset scale. */
        final VlSetup sized;
        final TestbedSetups fluid;

        Runner(SensitivityTable table) {
            this.table = table;
            corun = new VlSetup(cfg.queues() + 1, TABLE_ENTRIES, planner(table, Allocation.CORUN));
            eq2 = new VlSetup(cfg.queues() + 1, TABLE_ENTRIES, planner(table, Allocation.EQ2));
            apps = new VlSetup(cfg.queues() + 1, TABLE_ENTRIES, ControllerPlanner.centralised(table,
                    new CanonicalCachingSolver(new MinSlowdownSolver()), Allocation.CORUN,
                    LevelAssigner.INFINIBAND_LEVELS, cfg.queues(), 1.0, LevelMode.APPLICATION));
            allVls = new VlSetup(Sl2Vl.SLS, 2 * TABLE_ENTRIES, null); // 15 VLs need more entries than 8
            sized = new VlSetup(cfg.queues() + 1, TABLE_ENTRIES,
                    planner(sized(table, SetupRules.paper().datasetScales()), Allocation.CORUN))
                    .withWorkloadNames(Fig8PacketCampaign::sizedName);
            fluid = new TestbedSetups(cfg.seed(), cfg.model(), cfg.queues(), 1.0, Mechanisms.NONE,
                    Allocation.CORUN);
        }

        private ControllerPlanner planner(SensitivityTable table, Allocation allocation) {
            return ControllerPlanner.centralised(table, new CanonicalCachingSolver(new MinSlowdownSolver()),
                    allocation, LevelAssigner.INFINIBAND_LEVELS, cfg.queues(), 1.0);
        }

        /** Runs setup {@code index} under {@code schemes}, appending each scheme's rows as it finishes. */
        void run(int index, List<Fig8Scheme> schemes, Fig8PacketCsv csv) {
            List<JobSpec> jobs = setup(index);
            for (Fig8Scheme s : schemes) {
                if (s == Fig8Scheme.FLUID_SABA) {
                    continue; // written with FLUID_MAX_MIN: one fluid run gives both
                }
                if (s == Fig8Scheme.FLUID_MAX_MIN) {
                    Map<String, JobOutcome> byJob = new HashMap<>();
                    fluid.run(index).forEach(o -> byJob.put(o.job(), o));
                    for (JobSpec j : jobs) {
                        JobOutcome o = byJob.get(j.id());
                        if (o == null || !o.workload().equals(j.workload().name())
                                || o.instances() != j.hosts().size()) {
                            throw new IllegalStateException("the fluid campaign drew another job " + j.id() + ": " + o);
                        }
                    }
                    csv.append(rows(index, Fig8Scheme.FLUID_MAX_MIN, jobs, id -> byJob.get(id).baselineSeconds()));
                    csv.append(rows(index, Fig8Scheme.FLUID_SABA, jobs, id -> byJob.get(id).policySeconds()));
                    continue;
                }
                Map<String, Double> t = packet(s, jobs);
                csv.append(rows(index, s, jobs, t::get));
            }
        }

        /** Writes what Saba's co-run predictor expects of its weights for setup {@code index}'s jobs. */
        void predict(int index, PredictorCheck predictions) {
            List<JobSpec> jobs = setup(index);
            Map<String, Set<PortId>> ports = VlSetup.portsOf(network, jobs);
            predictions.append(index, jobs, ports, corun.plan(jobs, ports), table);
        }

        private List<Fig8PacketRow> rows(int index, Fig8Scheme s, List<JobSpec> jobs,
                                         java.util.function.ToDoubleFunction<String> seconds) {
            List<Fig8PacketRow> out = new ArrayList<>();
            for (JobSpec j : jobs) {
                out.add(new Fig8PacketRow(index, s, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                        seconds.applyAsDouble(j.id())));
            }
            return out;
        }

        /** Completion time of every job under a packet-level scheme. */
        private Map<String, Double> packet(Fig8Scheme s, List<JobSpec> jobs) {
            return switch (s) {
                case SHARED -> packet(VlMode.SHARED, jobs, eq2, cfg.queues() + 1, false);
                case SHARED_CC -> packet(VlMode.SHARED, jobs, eq2, cfg.queues() + 1, true);
                case CONTROL -> packet(VlMode.VL_PER_APPLICATION, jobs, eq2, cfg.queues() + 1, false);
                case CONTROL_15 -> packet(VlMode.VL_PER_APPLICATION, jobs, allVls, Sl2Vl.SLS, false);
                case SABA -> packet(VlMode.SABA, jobs, corun, cfg.queues() + 1, false);
                case SABA_EQ2 -> packet(VlMode.SABA, jobs, eq2, cfg.queues() + 1, false);
                case SABA_EQUAL -> packet(VlMode.SABA, jobs, eq2.withEqualSabaWeights(), cfg.queues() + 1, false);
                case SABA_SPREAD -> packet(VlMode.SABA, jobs, corun.withSpreadApplications(), cfg.queues() + 1,
                        false);
                case SABA_APPS -> packet(VlMode.SABA, jobs, apps, cfg.queues() + 1, false);
                case SABA_APPS_EQUAL -> packet(VlMode.SABA, jobs, apps.withEqualSabaWeights(), cfg.queues() + 1,
                        false);
                case SABA_SIZED -> packet(VlMode.SABA, jobs, sized, cfg.queues() + 1, false);
                case ALONE -> {
                    Map<String, Double> alone = new HashMap<>();
                    for (JobSpec j : jobs) {
                        alone.putAll(packet(VlMode.SHARED, List.of(j), eq2, cfg.queues() + 1, false));
                    }
                    yield alone;
                }
                case FLUID_MAX_MIN, FLUID_SABA -> throw new IllegalArgumentException(s + " is not a packet scheme");
            };
        }

        private Map<String, Double> packet(VlMode mode, List<JobSpec> jobs, VlSetup vlSetup, int vls,
                                           boolean congestionControl) {
            LeafSpine.Fabric f = shape.build(params, Policy.RR, vls);
            if (congestionControl) {
                f.network().enableCongestionControl(CongestionControl.preset(cfg.congestionControl()));
            }
            Map<String, Integer> sl = vlSetup.apply(mode, f, jobs).slOf();
            RoundDriver.Result r = new RoundDriver(f, jobs, sl).run();
            packets.addAndGet(r.packets());
            return r.completionSeconds();
        }
    }

}
