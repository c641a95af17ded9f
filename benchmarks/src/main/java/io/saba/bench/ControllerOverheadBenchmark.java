package io.saba.bench;

import io.saba.core.progress.Progress;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import io.saba.core.topology.Topology;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;

/**
 * The paper's controller-overhead study (§8.5, Fig. 12): for 1 to 1,000 active applications with 32 instances
 * each placed at random on the 1,944-server spine-leaf, the time to compute every application's share at every
 * switch port, for model degrees k = 1, 2, 3; beside it, a generic SQP optimiser on a sample of the same ports.
 *
 * <p>Timed, "full": the controller's allocation pipeline ({@link Allocator}): level assignment (K-means over the
 * workloads present) and the level hierarchy ({@link Allocator#planLevels}), then Eq. 2 plus the queue mapping at
 * every port a connection crosses (on one thread unless asked for more): what the controller recomputes when the
 * set of workloads changes. Each port is solved from its state, the count of applications per workload model
 * ({@link Allocator#planPort}); every application's share is then its group's.
 *
 * <p>Timed, "arrive" and "leave": after each full allocation, {@code events} times one application arrives (a
 * new one of a random workload, placed like the others) or one leaves (a random one), and only the ports whose
 * application set changed are planned again, as the controller's {@code Recomputer} does, once with each solver
 * started from the port's previous multiplier ("warm") and once without ("cold", what the controller runs: a
 * warm start moves the weights' last bits, and a port's allocation must not depend on its history), in
 * alternating order, so the warm start's gain is measured in the same run. An event that brings a workload the
 * scenario did not have would change the levels and recompute everything; with 250 or more applications of the
 * table's 10 workloads that does not happen, and such events are counted and skipped.
 *
 * <p>Not timed: placing instances and resolving the ~1M connections' paths into per-port state, which a controller
 * maintains incrementally as connections arrive (reported separately), and materialising a per-application weight
 * map at every port (reported once per cell as "per-app ms", what {@link Allocator#allocatePort} costs for status
 * pages).
 *
 * <p>Before any cell, {@code warmup} scenarios per degree run untimed: the JIT compiles the solver while it runs,
 * and the branches a degree takes (k = 1 has no curvature) are in the compiled code before anything is timed.
 * Without it the first cell measures the compiler (C2 compiles the solver during that cell and again when k
 * changes). A couple of warm-up scenarios are not enough: one timed scenario of the first cell can still take about
 * twice the median's CPU, so the command's default is ten. A controller runs for days, so its compiled code is what
 * the paper's figure compares with.
 *
 * <p>This class times the cells; a scenario's placement and its arrivals and departures are
 * {@link OverheadScenario}, planning one port from its state {@link OverheadPortPlanner}, the SQP baseline
 * {@link SqpComparison}.
 */
public final class ControllerOverheadBenchmark {
    /**
     * CPU time of the measuring thread: on a shared machine wall time includes waiting for a core, CPU time does
     * not, so both are reported (single-threaded runs only).
     */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Instances per application, as in the paper. */
    public static final int INSTANCES = 32;

    /** Settings of one run. */
    public record Settings(List<Integer> appCounts, List<Integer> degrees, int scenarios, int sqpPortsPerScenario,
                           int sqpMaxApps, int threads, long seed, int warmup, int events) {
        public Settings {
            if (scenarios < 1 || threads < 1) {
                throw new IllegalArgumentException("--scenarios and --threads must be 1 or more, got " + scenarios
                        + " and " + threads);
            }
            if (warmup < 0 || events < 0 || sqpPortsPerScenario < 0) {
                throw new IllegalArgumentException("--warmup, --events and --sqp-ports must be 0 or more, got "
                        + warmup + ", " + events + " and " + sqpPortsPerScenario);
            }
            if (appCounts.stream().anyMatch(a -> a < 1)) {
                throw new IllegalArgumentException("--apps must be 1 or more, got " + appCounts);
            }
            // a degree the table's samples cannot fit would quietly measure the table's own models under its label
            if (degrees.stream().anyMatch(k -> k < 1 || k > SensitivityModel.MAX_DEGREE)) {
                throw new IllegalArgumentException("--degrees must be 1 to " + SensitivityModel.MAX_DEGREE + ", got "
                        + degrees);
            }
        }
    }

    /** A median with its distribution-free 95 % interval (order statistics), and the 99th percentile. */
    public record Spread(double p50, double lo, double hi, double p99) {
        static Spread of(double[] values) {
            if (values.length == 0) {
                return new Spread(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            double[] v = values.clone();
            Arrays.sort(v);
            int[] ranks = medianInterval(v.length);
            return new Spread(percentile(v, 0.50), v[ranks[0]], v[ranks[1]], percentile(v, 0.99));
        }
    }

    /** What one kind of event costs in one cell: CPU ms per event, warm-started and cold, and ports per event. */
    public record EventCost(Spread warmCpuMs, Spread coldCpuMs, double meanPorts, int events, int skipped) {
    }

    /** One row of the result: one (applications, degree) cell. */
    public record Row(int apps, int degree, int scenarios, double meanPorts, double p50Ms, double p99Ms, double p99CpuMs,
                      double pathP50Ms, double perAppMs, int sqpPorts, int sqpFailures, double sqpTimeRatio, double objectiveRatioMean,
                      double objectiveRatioMax, Spread fullCpuMs, EventCost arrive, EventCost leave) {
    }

    private final Topology topology;
    private final SensitivityTable table;
    private final PrintStream progress;
    private ForkJoinPool pool;

    public ControllerOverheadBenchmark(Topology topology, SensitivityTable table, PrintStream progress) {
        this.topology = topology;
        this.table = table;
        this.progress = progress;
    }

    public List<Row> run(Settings s) {
        int largest = s.appCounts().stream().mapToInt(Integer::intValue).max().orElse(1);
        for (int k : s.degrees()) {
            Settings warm = new Settings(List.of(largest), List.of(k), s.warmup(), 0, 0, s.threads(), s.seed() + 7919,
                    0, s.events());
            cell(largest, k, refit(k), warm, true);
        }
        List<Row> rows = new ArrayList<>();
        for (int k : s.degrees()) {
            List<SensitivityModel> models = refit(k);
            for (int apps : s.appCounts()) {
                rows.add(cell(apps, k, models, s, false));
            }
        }
        return rows;
    }

    /** The table's workloads refitted at degree k from their own samples, so only the degree differs. */
    private List<SensitivityModel> refit(int k) {
        List<SensitivityModel> models = new ArrayList<>();
        for (TableEntry e : table.entries().values()) {
            models.add(e.samples().size() > k ? ModelFitter.fit(e.samples(), k).model() : e.model());
        }
        return models;
    }

    private Row cell(int appCount, int k, List<SensitivityModel> models, Settings s, boolean warmUpOnly) {
        Random rnd = new Random(s.seed() * 31 + appCount * 7L + k);
        List<String> hosts = new ArrayList<>(topology.hosts());
        double[] times = new double[s.scenarios()];
        double[] pathTimes = new double[s.scenarios()];
        double[] cpuTimes = new double[s.scenarios()];
        EventSamples arrive = new EventSamples();
        EventSamples leave = new EventSamples();
        long ports = 0;
        double oursSqpNanos = 0;
        double sqpNanos = 0;
        double ratioSum = 0;
        double ratioMax = 0;
        int sqpPorts = 0;
        int sqpFailures = 0;
        double perAppMs = Double.NaN;
        Allocator allocator = new Allocator(new MinSlowdownSolver(), LevelAssigner.INFINIBAND_LEVELS, 1.0);
        Map<PortId, Integer> queues = new HashMap<>(); // a controller holds each port's queue count with its state
        Progress bar = new Progress(progress, String.format(Locale.ROOT, warmUpOnly ? "fig12 warm-up: %d apps, k=%d"
                : "fig12: %d apps, k=%d", appCount, k), s.scenarios(), 0);
        for (int sc = warmUpOnly ? 0 : -1; sc < s.scenarios(); sc++) { // scenario −1 is not recorded
            if (sc > 0) {
                bar.step(); // scenario sc − 1 is done
            }
            boolean record = sc >= 0 && !warmUpOnly;
            List<Application> apps = new ArrayList<>(appCount);
            for (int a = 0; a < appCount; a++) {
                apps.add(OverheadScenario.newApplication(a, models, rnd));
            }
            long t0 = System.nanoTime();
            OverheadScenario scenario = OverheadScenario.place(topology, models, queues, apps, hosts, rnd);
            double pathMs = (System.nanoTime() - t0) / 1e6;

            long t1 = System.nanoTime();
            long c1 = THREADS.getCurrentThreadCpuTime();
            Map<String, SensitivityModel> present = new java.util.TreeMap<>();
            for (Application a : apps) {
                present.put(a.workload(), a.model());
            }
            LevelPlan plan = allocator.planLevels(present, topology.minQueues());
            int[] levelOfModel = new int[models.size()];
            for (int m = 0; m < models.size(); m++) {
                levelOfModel[m] = plan.levelOf(OverheadScenario.workload(m));
            }
            OverheadPortPlanner planner = new OverheadPortPlanner(allocator, models, levelOfModel, plan);
            long planned = planAll(planner, scenario, s.threads());
            double planMs = (System.nanoTime() - t1) / 1e6;
            double planCpuMs = (THREADS.getCurrentThreadCpuTime() - c1) / 1e6;
            if (planned != scenario.appsOnPort.size()) {
                throw new IllegalStateException("planned " + planned + " of " + scenario.appsOnPort.size() + " ports");
            }
            if (!record) {
                events(planner, scenario, present.keySet(), hosts, s.events(), rnd, new EventSamples(),
                        new EventSamples());
                continue;
            }
            times[sc] = planMs;
            cpuTimes[sc] = planCpuMs;
            pathTimes[sc] = pathMs;
            ports += scenario.appsOnPort.size();
            if (sc == 0) {
                perAppMs = perAppMaps(planner, scenario);
            }
            if (appCount <= s.sqpMaxApps()) {
                SqpComparison cmp = SqpComparison.sample(scenario.appsOnPort, apps, s.sqpPortsPerScenario(), rnd);
                oursSqpNanos += cmp.oursNanos();
                sqpNanos += cmp.sqpNanos();
                ratioSum += cmp.ratioSum();
                ratioMax = Math.max(ratioMax, cmp.ratioMax());
                sqpPorts += cmp.ports();
                sqpFailures += cmp.failures();
            }
            events(planner, scenario, present.keySet(), hosts, s.events(), rnd, arrive, leave);
        }
        bar.step(); // the last scenario
        return new Row(appCount, k, s.scenarios(), (double) ports / s.scenarios(), percentile(times, 0.50),
                percentile(times, 0.99), s.threads() <= 1 ? percentile(cpuTimes, 0.99) : Double.NaN,
                percentile(pathTimes, 0.50), perAppMs, sqpPorts, sqpFailures,
                sqpPorts == 0 ? Double.NaN : sqpNanos / oursSqpNanos,
                sqpPorts == 0 ? Double.NaN : ratioSum / sqpPorts, sqpPorts == 0 ? Double.NaN : ratioMax,
                s.threads() <= 1 ? Spread.of(cpuTimes) : Spread.of(new double[0]), arrive.cost(), leave.cost());
    }

    /** CPU times of one kind of event over a cell. */
    private static final class EventSamples {
        final List<Double> warm = new ArrayList<>();
        final List<Double> cold = new ArrayList<>();
        long ports;
        int skipped;

        EventCost cost() {
            return new EventCost(Spread.of(warm.stream().mapToDouble(Double::doubleValue).toArray()),
                    Spread.of(cold.stream().mapToDouble(Double::doubleValue).toArray()),
                    warm.isEmpty() ? Double.NaN : (double) ports / warm.size(), warm.size(), skipped);
        }
    }

    /**
     * {@code count} arrivals and {@code count} departures, alternating, on the scenario. For each, the per-port
     * state is updated untimed (a controller does that as connections arrive), then the ports whose application set
     * changed are planned twice, warm and cold, the order alternating. An event that would change the levels is
     * skipped and counted: it is a full recomputation, timed apart.
     */
    private static void events(OverheadPortPlanner planner, OverheadScenario scenario, Set<String> workloads,
                               List<String> hosts, int count, Random rnd, EventSamples arrive, EventSamples leave) {
        for (int e = 0; e < 2 * count; e++) {
            boolean arriving = e % 2 == 0;
            EventSamples samples = arriving ? arrive : leave;
            List<PortId> changed = arriving ? scenario.arrive(workloads, hosts, rnd) : scenario.leave(rnd);
            if (changed == null) {
                samples.skipped++;
                continue;
            }
            samples.ports += changed.size();
            List<OverheadScenario.PortState> touched = new ArrayList<>(changed.size());
            changed.forEach(p -> touched.add(scenario.ports.get(p)));
            boolean warmFirst = (e / 2) % 2 == 0;
            for (int pass = 0; pass < 2; pass++) {
                boolean warm = (pass == 0) == warmFirst;
                long c0 = THREADS.getCurrentThreadCpuTime();
                for (OverheadScenario.PortState p : touched) {
                    planner.plan(p, warm);
                }
                double ms = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                (warm ? samples.warm : samples.cold).add(ms);
            }
        }
    }

    /** One scenario again with a per-application weight map at every port (what status pages cost). */
    private double perAppMaps(OverheadPortPlanner planner, OverheadScenario scenario) {
        List<Application> apps = scenario.apps;
        List<SensitivityModel> models = planner.models();
        long t2 = System.nanoTime();
        for (Map.Entry<PortId, BitSet> e : scenario.appsOnPort.entrySet()) {
            List<AppAtPort> onPort = new ArrayList<>(e.getValue().cardinality());
            e.getValue().stream().forEach(i -> onPort.add(new AppAtPort(apps.get(i).id(),
                    apps.get(i).workload(), planner.levelOfModel()[models.indexOf(apps.get(i).model())],
                    apps.get(i).model(), 1)));
            planner.allocator().allocatePort(e.getKey(), topology.queues(e.getKey()), onPort, planner.plan());
        }
        return (System.nanoTime() - t2) / 1e6;
    }

    /** Plans every port, on {@code threads} threads (ports are independent: the paper's ground for distribution). */
    private long planAll(OverheadPortPlanner planner, OverheadScenario scenario, int threads) {
        List<OverheadScenario.PortState> ports = new ArrayList<>(scenario.ports.values());
        if (threads <= 1) {
            long n = 0;
            for (OverheadScenario.PortState p : ports) {
                n += planner.plan(p, false) ? 1 : 0;
            }
            return n;
        }
        try { // each port's state is written by the one thread planning it
            return pool(threads).submit(() -> ports.parallelStream()
                    .filter(p -> planner.plan(p, false))
                    .count()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private ForkJoinPool pool(int threads) {
        if (pool == null || pool.getParallelism() != threads) {
            pool = new ForkJoinPool(threads);
        }
        return pool;
    }

    /**
     * Ranks (0-based, of the sorted sample) of a distribution-free interval for the median with at least 95 %
     * coverage: [v(j), v(n−1−j)] with the largest j such that P(Binomial(n, ½) ≤ j) ≤ 2.5 %; the whole range when
     * n is too small for that (n ≤ 5).
     */
    static int[] medianInterval(int n) {
        double cdf = 0;
        double p = Math.pow(0.5, n); // P(X = 0)
        int j = -1;
        for (int i = 0; i < n; i++) {
            cdf += p;
            if (cdf > 0.025) {
                break;
            }
            j = i;
            p = p * (n - i) / (i + 1);
        }
        int lo = Math.max(0, j);
        return new int[] {lo, n - 1 - lo};
    }

    /** Nearest-rank quantile ({@link io.saba.core.stats.Stats#quantile}); NaN for no values. */
    static double percentile(double[] values, double q) {
        return io.saba.core.stats.Stats.quantile(values, q);
    }
}
