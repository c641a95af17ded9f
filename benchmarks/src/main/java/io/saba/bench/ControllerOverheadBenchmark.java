package io.saba.bench;

import io.saba.core.progress.Progress;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortDemand;
import io.saba.core.alloc.PortId;
import io.saba.core.alloc.QueuePlan;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import org.hipparchus.exception.MathRuntimeException;

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

    /** One port as a controller holds it: applications per model, its queue count, its last multiplier. */
    private static final class PortState {
        final PortId port;
        final int[] counts;
        final int queues;
        double lambda = Double.NaN;

        PortState(PortId port, int[] counts, int queues) {
            this.port = port;
            this.counts = counts;
            this.queues = queues;
        }
    }

    /** One scenario's state: who crosses each port, and each port's {@link PortState}. */
    private static final class State {
        final Map<PortId, BitSet> appsOnPort;
        final Map<PortId, PortState> ports = new HashMap<>();
        final List<Application> apps;

        State(Map<PortId, BitSet> appsOnPort, Map<PortId, int[]> modelCounts, List<Application> apps,
              Map<PortId, Integer> queues) {
            this.appsOnPort = appsOnPort;
            this.apps = apps;
            modelCounts.forEach((p, c) -> ports.put(p, new PortState(p, c, queues.get(p))));
        }
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
                apps.add(newApplication(a, models, rnd));
            }
            long t0 = System.nanoTime();
            Map<PortId, BitSet> appsOnPort = place(appCount, hosts, rnd);
            appsOnPort.keySet().forEach(p -> queues.computeIfAbsent(p, topology::queues));
            State state = new State(appsOnPort, countModels(appsOnPort, apps, models), apps, queues);
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
                levelOfModel[m] = plan.levelOf(workload(m));
            }
            long planned = planAll(allocator, state, models, levelOfModel, plan, s.threads());
            double planMs = (System.nanoTime() - t1) / 1e6;
            double planCpuMs = (THREADS.getCurrentThreadCpuTime() - c1) / 1e6;
            if (planned != appsOnPort.size()) {
                throw new IllegalStateException("planned " + planned + " of " + appsOnPort.size() + " ports");
            }
            if (!record) {
                events(allocator, state, queues, models, levelOfModel, plan, present.keySet(), hosts, s.events(), rnd,
                        new EventSamples(), new EventSamples());
                continue;
            }
            times[sc] = planMs;
            cpuTimes[sc] = planCpuMs;
            pathTimes[sc] = pathMs;
            ports += appsOnPort.size();
            if (sc == 0) {
                perAppMs = perAppMaps(allocator, appsOnPort, apps, models, levelOfModel, plan);
            }
            if (appCount <= s.sqpMaxApps()) {
                double[] cmp = compareWithSqp(appsOnPort, apps, s.sqpPortsPerScenario(), rnd);
                oursSqpNanos += cmp[0];
                sqpNanos += cmp[1];
                ratioSum += cmp[2];
                ratioMax = Math.max(ratioMax, cmp[3]);
                sqpPorts += (int) cmp[4];
                sqpFailures += (int) cmp[5];
            }
            events(allocator, state, queues, models, levelOfModel, plan, present.keySet(), hosts, s.events(), rnd,
                    arrive, leave);
        }
        bar.step(); // the last scenario
        return new Row(appCount, k, s.scenarios(), (double) ports / s.scenarios(), percentile(times, 0.50),
                percentile(times, 0.99), s.threads() <= 1 ? percentile(cpuTimes, 0.99) : Double.NaN,
                percentile(pathTimes, 0.50), perAppMs, sqpPorts, sqpFailures,
                sqpPorts == 0 ? Double.NaN : sqpNanos / oursSqpNanos,
                sqpPorts == 0 ? Double.NaN : ratioSum / sqpPorts, sqpPorts == 0 ? Double.NaN : ratioMax,
                s.threads() <= 1 ? Spread.of(cpuTimes) : Spread.of(new double[0]), arrive.cost(), leave.cost());
    }

    private static Application newApplication(int a, List<SensitivityModel> models, Random rnd) {
        int m = rnd.nextInt(models.size());
        return new Application(String.format("app%04d", a), workload(m), models.get(m));
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
     * {@code count} arrivals and {@code count} departures, alternating, on the scenario's state. For each, the
     * per-port state is updated untimed (a controller does that as connections arrive), then the ports whose
     * application set changed are planned twice, warm and cold, the order alternating.
     */
    private void events(Allocator allocator, State state, Map<PortId, Integer> queues, List<SensitivityModel> models,
                        int[] levelOfModel, LevelPlan plan, java.util.Set<String> workloads, List<String> hosts,
                        int count, Random rnd, EventSamples arrive, EventSamples leave) {
        for (int e = 0; e < 2 * count; e++) {
            boolean arriving = e % 2 == 0;
            EventSamples samples = arriving ? arrive : leave;
            List<PortId> changed;
            if (arriving) {
                int id = state.apps.size();
                Application app = newApplication(id, models, rnd);
                if (!workloads.contains(app.workload())) {
                    samples.skipped++; // a new workload changes the levels: a full recomputation, timed above
                    continue;
                }
                state.apps.add(app);
                changed = new ArrayList<>(portsOf(pick(hosts, INSTANCES, rnd)));
                int m = models.indexOf(app.model());
                for (PortId p : changed) {
                    state.appsOnPort.computeIfAbsent(p, x -> new BitSet()).set(id);
                    state.ports.computeIfAbsent(p, x -> new PortState(x, new int[models.size()],
                            queues.computeIfAbsent(x, topology::queues))).counts[m]++;
                }
            } else {
                int id = leaver(state, rnd);
                if (workloadLeaves(state, id)) {
                    samples.skipped++; // the last application of its workload: the levels change
                    continue;
                }
                int m = models.indexOf(state.apps.get(id).model());
                changed = new ArrayList<>();
                for (Map.Entry<PortId, BitSet> p : state.appsOnPort.entrySet()) {
                    if (p.getValue().get(id)) {
                        p.getValue().clear(id);
                        changed.add(p.getKey());
                        state.ports.get(p.getKey()).counts[m]--;
                    }
                }
                changed.removeIf(p -> {
                    if (state.appsOnPort.get(p).isEmpty()) { // nobody left: the port is released, not planned
                        state.appsOnPort.remove(p);
                        state.ports.remove(p);
                        return true;
                    }
                    return false;
                });
                state.apps.set(id, null);
            }
            samples.ports += changed.size();
            List<PortState> touched = new ArrayList<>(changed.size());
            changed.forEach(p -> touched.add(state.ports.get(p)));
            boolean warmFirst = (e / 2) % 2 == 0;
            for (int pass = 0; pass < 2; pass++) {
                boolean warm = (pass == 0) == warmFirst;
                long c0 = THREADS.getCurrentThreadCpuTime();
                for (PortState p : touched) {
                    plan(allocator, p, models, levelOfModel, plan, warm);
                }
                double ms = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                (warm ? samples.warm : samples.cold).add(ms);
            }
        }
    }

    /** A random application still present. */
    private static int leaver(State state, Random rnd) {
        while (true) {
            int id = rnd.nextInt(state.apps.size());
            if (state.apps.get(id) != null) {
                return id;
            }
        }
    }

    /** Whether application {@code id} is the last present one of its workload. */
    private static boolean workloadLeaves(State state, int id) {
        String w = state.apps.get(id).workload();
        for (int a = 0; a < state.apps.size(); a++) {
            if (a != id && state.apps.get(a) != null && state.apps.get(a).workload().equals(w)) {
                return false;
            }
        }
        return true;
    }

    /** The ports the connections among these instances cross. */
    private java.util.Set<PortId> portsOf(List<String> instances) {
        java.util.Set<PortId> out = new java.util.HashSet<>();
        for (String src : instances) {
            for (String dst : instances) {
                if (!src.equals(dst)) {
                    out.addAll(topology.path(src, dst));
                }
            }
        }
        return out;
    }

    /** One scenario again with a per-application weight map at every port (what status pages cost). */
    private double perAppMaps(Allocator allocator, Map<PortId, BitSet> appsOnPort, List<Application> apps,
                              List<SensitivityModel> models, int[] levelOfModel, LevelPlan plan) {
        long t2 = System.nanoTime();
        for (Map.Entry<PortId, BitSet> e : appsOnPort.entrySet()) {
            List<AppAtPort> onPort = new ArrayList<>(e.getValue().cardinality());
            e.getValue().stream().forEach(i -> onPort.add(new AppAtPort(apps.get(i).id(),
                    apps.get(i).workload(), levelOfModel[models.indexOf(apps.get(i).model())],
                    apps.get(i).model(), 1)));
            allocator.allocatePort(e.getKey(), topology.queues(e.getKey()), onPort, plan);
        }
        return (System.nanoTime() - t2) / 1e6;
    }

    /** Model m's workload: every model of the benchmark is a workload of its own. */
    private static String workload(int m) {
        return "m" + m;
    }

    /** Per port, how many of its applications run each model: the state Eq. 2 needs. */
    private static Map<PortId, int[]> countModels(Map<PortId, BitSet> appsOnPort, List<Application> apps,
                                                  List<SensitivityModel> models) {
        int[] modelOfApp = new int[apps.size()];
        for (int a = 0; a < modelOfApp.length; a++) {
            modelOfApp[a] = models.indexOf(apps.get(a).model());
        }
        Map<PortId, int[]> counts = new HashMap<>(appsOnPort.size() * 2);
        appsOnPort.forEach((port, set) -> {
            int[] c = new int[models.size()];
            set.stream().forEach(a -> c[modelOfApp[a]]++);
            counts.put(port, c);
        });
        return counts;
    }

    /** Plans every port, on {@code threads} threads (ports are independent: the paper's ground for distribution). */
    private long planAll(Allocator allocator, State state, List<SensitivityModel> models,
                         int[] levelOfModel, LevelPlan plan, int threads) {
        List<PortState> ports = new ArrayList<>(state.ports.values());
        if (threads <= 1) {
            long n = 0;
            for (PortState p : ports) {
                n += plan(allocator, p, models, levelOfModel, plan, false) ? 1 : 0;
            }
            return n;
        }
        try { // each port's state is written by the one thread planning it
            return pool(threads).submit(() -> ports.parallelStream()
                    .filter(p -> plan(allocator, p, models, levelOfModel, plan, false))
                    .count()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private ForkJoinPool pool;

    private ForkJoinPool pool(int threads) {
        if (pool == null || pool.getParallelism() != threads) {
            pool = new ForkJoinPool(threads);
        }
        return pool;
    }

    /**
     * Plans one port from its model counts, starting the solver from its last multiplier if {@code warm}, and
     * keeps the new multiplier; true once done (the result is what a backend would be pushed).
     */
    private static boolean plan(Allocator allocator, PortState port, List<SensitivityModel> models,
                                int[] levelOfModel, LevelPlan plan, boolean warm) {
        QueuePlan q = planPort(allocator, port.port, port.counts, port.queues, models, levelOfModel, plan,
                warm ? port.lambda : Double.NaN);
        port.lambda = q.shares().lambda();
        return q != null;
    }

    private static QueuePlan planPort(Allocator allocator, PortId port, int[] counts, int queues,
                                      List<SensitivityModel> models, int[] levelOfModel, LevelPlan plan, double hint) {
        int groups = 0;
        for (int c : counts) {
            groups += c > 0 ? 1 : 0;
        }
        List<SensitivityModel> present = new ArrayList<>(groups);
        int[] presentCounts = new int[groups];
        int[] presentLevels = new int[groups];
        for (int m = 0, g = 0; m < counts.length; m++) {
            if (counts[m] > 0) {
                present.add(models.get(m));
                presentCounts[g] = counts[m];
                presentLevels[g++] = levelOfModel[m];
            }
        }
        return allocator.planPort(PortDemand.ofGroups(port, present, presentCounts, hint), queues, presentLevels, plan);
    }

    /** Places every application's instances on distinct random servers and collects, per port, who crosses it. */
    private Map<PortId, BitSet> place(int appCount, List<String> hosts, Random rnd) {
        Map<PortId, BitSet> appsOnPort = new HashMap<>();
        for (int a = 0; a < appCount; a++) {
            List<String> inst = pick(hosts, INSTANCES, rnd);
            for (String src : inst) {
                for (String dst : inst) {
                    if (!src.equals(dst)) {
                        for (PortId p : topology.path(src, dst)) {
                            appsOnPort.computeIfAbsent(p, x -> new BitSet()).set(a);
                        }
                    }
                }
            }
        }
        return appsOnPort;
    }

    private static List<String> pick(List<String> hosts, int n, Random rnd) {
        List<String> out = new ArrayList<>(n);
        BitSet taken = new BitSet(hosts.size());
        while (out.size() < Math.min(n, hosts.size())) {
            int i = rnd.nextInt(hosts.size());
            if (!taken.get(i)) {
                taken.set(i);
                out.add(hosts.get(i));
            }
        }
        return out;
    }

    /**
     * Solves a random sample of multi-application ports with both solvers.
     *
     * @return {nanos ours, nanos SQP, Σ objective ratio ours/SQP, max ratio, ports compared, SQP failures}
     */
    private static double[] compareWithSqp(Map<PortId, BitSet> appsOnPort, List<Application> apps, int sample, Random rnd) {
        List<BitSet> candidates = new ArrayList<>();
        for (BitSet b : appsOnPort.values()) {
            if (b.cardinality() > 1) {
                candidates.add(b);
            }
        }
        MinSlowdownSolver ours = new MinSlowdownSolver();
        SqpPortSolver sqp = new SqpPortSolver(ours.floor());
        double[] r = new double[6];
        for (int i = 0; i < sample && !candidates.isEmpty(); i++) {
            BitSet b = candidates.get(rnd.nextInt(candidates.size()));
            List<SensitivityModel> models = new ArrayList<>();
            b.stream().forEach(a -> models.add(apps.get(a).model()));
            long t0 = System.nanoTime();
            PortSolution mine = ours.solve(models, 1.0);
            long t1 = System.nanoTime();
            PortSolution theirs;
            try {
                theirs = sqp.solve(models, 1.0);
            } catch (MathRuntimeException e) {
                r[5]++; // SQP gave up ("convergence failed", or its quasi-Newton matrix lost symmetry): nothing to compare
                continue;
            }
            long t2 = System.nanoTime();
            r[0] += t1 - t0;
            r[1] += t2 - t1;
            double ratio = mine.objective() / theirs.objective();
            r[2] += ratio;
            r[3] = Math.max(r[3], ratio);
            r[4]++;
        }
        return r;
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
