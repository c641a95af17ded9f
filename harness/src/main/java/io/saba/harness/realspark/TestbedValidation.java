package io.saba.harness.realspark;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.corun.CorunProfile;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import io.saba.core.topology.Topologies;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.campaign.PairedRun;
import io.saba.harness.campaign.Plots;
import io.saba.harness.campaign.Speedups;
import io.saba.harness.csv.CsvLine;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.policy.SabaPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.RecordedWorkload;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The simulator checked against the real-Spark testbed campaign: every measured setup simulated on the same testbed
 * (one switch, the campaign's hosts and link rate, C_Saba and queues), the same jobs on the same hosts at the same
 * dataset factors, the workloads calibrated from the table's traffic records ({@link RecordedWorkload}), the baseline
 * as per-flow max-min (TCP flows in one FIFO class) and Saba as the controller's own pipeline with the campaign's
 * allocation. Each job's simulated speedup is set beside its measured one.
 *
 * <p>The bar the simulator is held to: each workload's geometric-mean speedup within ±15 % of the measured one, and the order of
 * baseline, per-application fair and Saba (by the setup's mean speedup) the same in at least 80 % of setups. The fair
 * treatment is a second campaign folder on the same setups ({@code --allocation fair}: equal weights on Saba's
 * levels), simulated through the same pipeline with {@link Allocation#FAIR}; without one, the order is baseline
 * against Saba.
 */
public final class TestbedValidation {
    /** Relative error of a workload's simulated speedup that still counts as predicted. */
    public static final double WORKLOAD_TOLERANCE = 0.15;
    /** Share of setups whose order of baseline and Saba must agree. */
    public static final double ORDER_BAR = 0.8;
    /** The testbed's ports: Saba's queues plus the default one (saba testbed up, host-queues 8). */
    private static final int PORT_QUEUES = 8;

    /**
     * One job measured and simulated: its speedups and its baseline times (the simulator's times tell whether the
     * simulated testbed is as slow as the real one, which the speedups alone hide).
     */
    public record Row(int setup, String job, String workload, double factor, int instances, double measured,
                      double simulated, double measuredBaselineSeconds, double simulatedBaselineSeconds,
                      double measuredFair, double simulatedFair) {
        /** A row without a fair treatment. */
        public Row(int setup, String job, String workload, double factor, int instances, double measured,
                   double simulated, double measuredBaselineSeconds, double simulatedBaselineSeconds) {
            this(setup, job, workload, factor, instances, measured, simulated, measuredBaselineSeconds,
                    simulatedBaselineSeconds, Double.NaN, Double.NaN);
        }
    }

    /**
     * The comparison, per job.
     *
     * @param mechanisms what the simulator modelled beyond fluid sharing (the testbed's shared cores, queueing)
     * @param setupNoise how far a setup's mean speedup strays from 1 between two runs of the same baseline (the
     *                   root mean square over setups of the Saba folder's baseline times over the fair folder's,
     *                   averaged over the setup's jobs); NaN without a fair folder
     */
    public record Result(CampaignFingerprint campaign, Mechanisms mechanisms, List<Row> rows, int incompleteSetups,
                         double setupNoise) {
        /** Whether a fair treatment was measured and simulated beside Saba. */
        public boolean withFair() {
            return !rows.isEmpty() && rows.stream().noneMatch(r -> Double.isNaN(r.measuredFair()));
        }

        /** Per workload: measured and simulated geometric-mean speedups. */
        public Map<String, double[]> perWorkload() {
            Map<String, List<Row>> by = rows.stream().collect(Collectors.groupingBy(Row::workload, TreeMap::new,
                    Collectors.toList()));
            Map<String, double[]> out = new LinkedHashMap<>();
            by.forEach((w, rs) -> out.put(w, new double[]{
                Speedups.geomean(rs.stream().map(Row::measured).toList()),
                Speedups.geomean(rs.stream().map(Row::simulated).toList()), rs.size()}));
            return out;
        }

        /**
         * Per setup: measured and simulated mean speedups of Saba, then of fair (NaN without one; arithmetic means
         * over the setup's jobs, as the campaign's per-setup figure).
         */
        public Map<Integer, double[]> perSetup() {
            Map<Integer, double[]> out = new TreeMap<>();
            rows.stream().collect(Collectors.groupingBy(Row::setup, TreeMap::new, Collectors.toList()))
                    .forEach((s, rs) -> out.put(s, new double[]{mean(rs, Row::measured), mean(rs, Row::simulated),
                        mean(rs, Row::measuredFair), mean(rs, Row::simulatedFair)}));
            return out;
        }

        private static double mean(List<Row> rs, java.util.function.ToDoubleFunction<Row> f) {
            return rs.stream().mapToDouble(f).average().orElse(Double.NaN);
        }
    }

    private TestbedValidation() {
    }

    /**
     * @param campaign    the measured campaign's settings (its fingerprint)
     * @param table       the table it allocated with (its traffic records calibrate the workloads)
     * @param measured    jobs.csv's rows by setup
     * @param mechanisms  what to model beyond fluid sharing: the pool of cores the namespace testbed's hosts share
     *                    ({@link Mechanisms#sharedCores}), the queueing delay of its shared FIFOs
     */
    public static Result run(CampaignFingerprint campaign, SensitivityTable table, Map<Integer, List<JobRow>> measured,
                             Mechanisms mechanisms) {
        return run(campaign, table, measured, null, mechanisms);
    }

    /**
     * As above, with {@code fair} the rows of the fair treatment's campaign on the same setups (null: none); a setup
     * counts only where both folders completed it, with the same jobs.
     */
    public static Result run(CampaignFingerprint campaign, SensitivityTable table, Map<Integer, List<JobRow>> measured,
                             Map<Integer, List<JobRow>> fair, Mechanisms mechanisms) {
        double gbps = campaign.linkRateBps() / 1e9;
        TopologyNetwork network = new TopologyNetwork(Topologies.singleSwitch(campaign.hosts(), gbps, PORT_QUEUES + 1),
                gbps);
        Map<String, WorkloadSpec> workloads = calibrate(table, network.hostLinkRate());
        PolicyFactory saba = pipeline(table, campaign.allocation(), campaign.cSaba());
        PolicyFactory equal = fair == null ? null : pipeline(table, Allocation.FAIR, campaign.cSaba());
        List<Row> rows = new ArrayList<>();
        List<Double> nullSpeedups = new ArrayList<>();
        int incomplete = 0;
        for (Map.Entry<Integer, List<JobRow>> e : measured.entrySet()) {
            List<JobRow> setup = e.getValue();
            List<JobRow> fairSetup = fair == null ? null : fair.get(e.getKey());
            if (!setup.stream().allMatch(JobRow::complete) || (fair != null && !sameJobsComplete(setup, fairSetup))) {
                incomplete++;
                continue;
            }
            List<JobSpec> jobs = new ArrayList<>();
            for (JobRow r : setup) {
                WorkloadSpec w = workloads.get(SensitivityTable.key(r.job().workload()));
                if (w == null) {
                    throw new IllegalArgumentException("the table has no traffic record for " + r.job().workload()
                            + " (setup " + e.getKey() + "): the simulator cannot calibrate it");
                }
                jobs.add(new JobSpec(r.job().id(), w, r.job().factor(),
                        r.job().hosts().stream().map(h -> "h" + h).toList()));
            }
            if (fairSetup != null) {
                nullSpeedups.add(IntStream.range(0, setup.size()).mapToDouble(i -> setup.get(i).outcome()
                        .baselineSeconds() / fairSetup.get(i).outcome().baselineSeconds()).average().orElseThrow());
            }
            List<JobOutcome> sim = PairedRun.run(e.getKey(), network, jobs, PerFlowMaxMinPolicy.FACTORY, saba,
                    mechanisms);
            List<JobOutcome> simFair = equal == null ? null
                    : PairedRun.run(e.getKey(), network, jobs, PerFlowMaxMinPolicy.FACTORY, equal, mechanisms);
            for (int i = 0; i < setup.size(); i++) {
                JobRow r = setup.get(i);
                rows.add(new Row(e.getKey(), r.job().id(), r.job().workload(), r.job().factor(), r.job().instances(),
                        r.speedup(), sim.get(i).speedup(), r.outcome().baselineSeconds(),
                        sim.get(i).baselineSeconds(), fairSetup == null ? Double.NaN : fairSetup.get(i).speedup(),
                        simFair == null ? Double.NaN : simFair.get(i).speedup()));
            }
        }
        double noise = nullSpeedups.isEmpty() ? Double.NaN
                : Math.sqrt(nullSpeedups.stream().mapToDouble(x -> (x - 1) * (x - 1)).average().orElseThrow());
        return new Result(campaign, mechanisms, rows, incomplete, noise);
    }

    /** Saba in the simulator: the controller's own pipeline with this allocation. */
    private static PolicyFactory pipeline(SensitivityTable table, Allocation allocation, double cSaba) {
        return SabaPolicy.factory(ControllerPlanner.centralised(table,
                new CanonicalCachingSolver(new MinSlowdownSolver()), allocation, LevelAssigner.ETHERNET_LEVELS,
                PORT_QUEUES, cSaba));
    }

    /** Whether the fair folder ran the same jobs in this setup and completed them. */
    private static boolean sameJobsComplete(List<JobRow> saba, List<JobRow> fair) {
        if (fair == null || fair.size() != saba.size() || !fair.stream().allMatch(JobRow::complete)) {
            return false;
        }
        for (int i = 0; i < saba.size(); i++) {
            if (!saba.get(i).job().equals(fair.get(i).job())) {
                throw new IllegalArgumentException("setup " + saba.get(0).setup() + " ran other jobs in the fair "
                        + "folder (" + fair.get(i).job() + " against " + saba.get(i).job() + "): not the same draws");
            }
        }
        return true;
    }

    /**
     * The treatments from fastest to slowest by mean speedup over the baseline ("saba > fair > baseline"); equal
     * speedups (within 1e-9) are written "=" and count as an order of their own.
     */
    static String order(double saba, double fairSpeedup) {
        List<Map.Entry<String, Double>> t = new ArrayList<>(List.of(Map.entry("saba", saba),
                Map.entry("baseline", 1.0)));
        if (!Double.isNaN(fairSpeedup)) {
            t.add(1, Map.entry("fair", fairSpeedup));
        }
        t.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        StringBuilder sb = new StringBuilder(t.get(0).getKey());
        for (int i = 1; i < t.size(); i++) {
            sb.append(Math.abs(t.get(i - 1).getValue() - t.get(i).getValue()) < 1e-9 ? " = " : " > ")
                    .append(t.get(i).getKey());
        }
        return sb.toString();
    }

    /**
     * The three treatments as a measurement with this noise can tell them apart, pair by pair: "&gt;" or "&lt;" where
     * two mean speedups differ by more than twice their difference's standard deviation (a treatment against the
     * baseline: {@code noise}; two treatments, each against a baseline of its own: √2 · {@code noise}), "~" where
     * they do not. The simulated speedups are read with the same bands, so a difference the simulator predicts but
     * the campaign could not see disagrees as much as one it misses.
     */
    static String resolvedOrder(double saba, double fairSpeedup, double noise) {
        return "saba " + relation(saba, 1, 2 * noise) + " baseline, fair " + relation(fairSpeedup, 1, 2 * noise)
                + " baseline, saba " + relation(saba, fairSpeedup, 2 * Math.sqrt(2) * noise) + " fair";
    }

    private static String relation(double a, double b, double band) {
        return Math.abs(a - b) <= band ? "~" : a > b ? ">" : "<";
    }

    private static Map<String, WorkloadSpec> calibrate(SensitivityTable table, double lineRate) {
        Map<String, WorkloadSpec> out = new TreeMap<>();
        ModelCatalog catalog = ModelCatalog.fromTable(table);
        for (TableEntry entry : table.entries().values()) {
            CorunProfile p = catalog.profileOf(entry.workload());
            if (p != null) {
                Integer nodes = entry.context() == null ? null : entry.context().nodes();
                out.put(SensitivityTable.key(entry.workload()),
                        RecordedWorkload.of(entry.workload(), p, nodes != null && nodes >= 2 ? nodes : 2, lineRate));
            }
        }
        return out;
    }

    /** Measured beside simulated, per workload and per setup, with the bar. */
    public static String report(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Testbed validation: the simulator on the measured campaign's setups "
                + "(%d hosts, %s, allocation %s, C_Saba %s; %s)%n%n", r.campaign().hosts(),
                rate(r.campaign().linkRateBps()), r.campaign().allocation().name().toLowerCase(Locale.ROOT),
                r.campaign().cSaba(), r.mechanisms().describe()));
        sb.append(String.format(Locale.ROOT, "%-14s %5s %9s %9s %8s  %s%n", "workload", "jobs", "measured",
                "simulated", "error", "within ±15 %"));
        int within = 0;
        Map<String, double[]> pw = r.perWorkload();
        for (Map.Entry<String, double[]> e : pw.entrySet()) {
            double[] v = e.getValue();
            double err = v[1] / v[0] - 1;
            boolean ok = Math.abs(err) <= WORKLOAD_TOLERANCE;
            within += ok ? 1 : 0;
            sb.append(String.format(Locale.ROOT, "%-14s %5d %8.3fx %8.3fx %+7.1f%%  %s%n", e.getKey(), (int) v[2],
                    v[0], v[1], 100 * err, ok ? "yes" : "no"));
        }
        int agree = 0;
        Map<Integer, double[]> ps = r.perSetup();
        if (r.withFair()) {
            sb.append(String.format(Locale.ROOT, "%n%-6s %26s %26s  %-26s %-26s %s%n", "setup",
                    "measured fair / saba", "simulated fair / saba", "measured order", "simulated order", "same"));
            for (Map.Entry<Integer, double[]> e : ps.entrySet()) {
                double[] v = e.getValue();
                String measured = order(v[0], v[2]);
                String simulated = order(v[1], v[3]);
                boolean same = measured.equals(simulated);
                agree += same ? 1 : 0;
                sb.append(String.format(Locale.ROOT, "%-6d %12.3fx / %8.3fx %12.3fx / %8.3fx  %-26s %-26s %s%n",
                        e.getKey(), v[2], v[0], v[3], v[1], measured, simulated, same ? "yes" : "no"));
            }
            sb.append(resolvedReport(r, ps));
        } else {
            sb.append(String.format(Locale.ROOT, "%n%-6s %9s %9s  %s%n", "setup", "measured", "simulated",
                    "same order (Saba faster or not)"));
            for (Map.Entry<Integer, double[]> e : ps.entrySet()) {
                double[] v = e.getValue();
                boolean same = (v[0] > 1) == (v[1] > 1);
                agree += same ? 1 : 0;
                sb.append(String.format(Locale.ROOT, "%-6d %8.3fx %8.3fx  %s%n", e.getKey(), v[0], v[1],
                        same ? "yes" : "no"));
            }
        }
        boolean workloadsMet = within == pw.size() && !pw.isEmpty();
        boolean orderMet = !ps.isEmpty() && agree >= ORDER_BAR * ps.size();
        sb.append(String.format(Locale.ROOT, "%nworkloads within ±15 %%: %d of %d (%s); setups in the same order: "
                + "%d of %d (%s, bar %.0f %%)%n", within, pw.size(), workloadsMet ? "met" : "not met", agree,
                ps.size(), orderMet ? "met" : "not met", 100 * ORDER_BAR));
        if (r.incompleteSetups() > 0) {
            sb.append(String.format(Locale.ROOT, "%d setups with a failed run left out%n", r.incompleteSetups()));
        }
        return sb.toString();
    }

    /** Each setup's order as its own noise resolves it, measured and simulated (see {@link #resolvedOrder}). */
    private static String resolvedReport(Result r, Map<Integer, double[]> ps) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nWithin the campaign's own noise: a "
                + "setup's speedup between two runs of the same baseline strays %.3f from 1 (root mean square over %d "
                + "setups), so differences within twice that (a treatment against the baseline) or 2.83 times that "
                + "(two treatments) are not told apart:%n", r.setupNoise(), ps.size()));
        int agree = 0;
        for (Map.Entry<Integer, double[]> e : ps.entrySet()) {
            double[] v = e.getValue();
            String measured = resolvedOrder(v[0], v[2], r.setupNoise());
            String simulated = resolvedOrder(v[1], v[3], r.setupNoise());
            boolean same = measured.equals(simulated);
            agree += same ? 1 : 0;
            sb.append(String.format(Locale.ROOT, "%-6d measured  %s%n       simulated %s  %s%n", e.getKey(), measured,
                    simulated, same ? "same" : "differs"));
        }
        sb.append(String.format(Locale.ROOT, "setups in the same resolved order: %d of %d%n", agree, ps.size()));
        return sb.toString();
    }

    /** The validation's rows, for plotting and for a reader's own statistics. */
    public static String csv(Result r) {
        List<String> header = new ArrayList<>(List.of("setup", "job", "workload", "factor", "instances",
                "measured_speedup", "simulated_speedup", "measured_baseline_s", "simulated_baseline_s"));
        if (r.withFair()) {
            header.addAll(List.of("measured_fair_speedup", "simulated_fair_speedup"));
        }
        StringBuilder sb = new StringBuilder(CsvLine.of(header));
        for (Row x : r.rows()) {
            List<String> v = new ArrayList<>(List.of(Integer.toString(x.setup()), x.job(), x.workload(),
                    JobsCsv.factor(x.factor()), Integer.toString(x.instances()), fixed(4, x.measured()),
                    fixed(4, x.simulated()), fixed(3, x.measuredBaselineSeconds()),
                    fixed(3, x.simulatedBaselineSeconds())));
            if (r.withFair()) {
                v.addAll(List.of(fixed(4, x.measuredFair()), fixed(4, x.simulatedFair())));
            }
            sb.append(CsvLine.of(v));
        }
        return sb.toString();
    }

    private static String fixed(int decimals, double v) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** testbed-validation.csv, summary.txt and testbed-validation.png (each job: simulated against measured). */
    public static void write(Path dir, Result r) {
        OutputFolder.write(dir.resolve("testbed-validation.csv"), csv(r));
        OutputFolder.write(dir.resolve("summary.txt"), report(r));
        Map<String, double[][]> byWorkload = new TreeMap<>();
        r.rows().stream().collect(Collectors.groupingBy(Row::workload)).forEach((w, rs) -> byWorkload.put(w,
                rs.stream().map(x -> new double[]{x.measured(), x.simulated()}).toArray(double[][]::new)));
        Plots.predictedVsMeasured(dir.resolve("testbed-validation.png"),
                "Jobs' speedups: simulator vs real-Spark testbed campaign", "speedup (baseline / Saba)", byWorkload,
                WORKLOAD_TOLERANCE);
    }

    private static String rate(long bps) {
        return bps % 1_000_000 == 0 ? bps / 1_000_000 + " Mbit/s" : bps + " bit/s";
    }
}
