package io.saba.bench;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortDemand;
import io.saba.core.alloc.PortId;
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
 * <p>Timed: the controller's allocation pipeline ({@link Allocator}): level assignment (K-means over the workloads
 * present) and the level hierarchy ({@link Allocator#planLevels}), then Eq. 2 plus the queue mapping at every port a
 * connection crosses (on one thread unless asked for more): what the controller recomputes when the application
 * set changes. Each port is solved from its state, the count of applications per workload model
 * ({@link Allocator#planPort});
 * every application's share is then its group's. Not timed: placing instances and resolving the ~1M
 * connections' paths into per-port state, which a controller maintains incrementally as connections arrive
 * (reported separately), and materialising a per-application weight map at every port (reported once per
 * cell as "per-app ms", what {@link Allocator#allocatePort} costs for status pages).
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
                           int sqpMaxApps, int threads, long seed) {
    }

    /** One row of the result: one (applications, degree) cell. */
    public record Row(int apps, int degree, int scenarios, double meanPorts, double p50Ms, double p99Ms, double p99CpuMs,
                      double pathP50Ms, double perAppMs, int sqpPorts, int sqpFailures, double sqpTimeRatio, double objectiveRatioMean,
                      double objectiveRatioMax) {
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
        List<Row> rows = new ArrayList<>();
        for (int k : s.degrees()) {
            List<SensitivityModel> models = refit(k);
            for (int apps : s.appCounts()) {
                rows.add(cell(apps, k, models, s));
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

    private Row cell(int appCount, int k, List<SensitivityModel> models, Settings s) {
        Random rnd = new Random(s.seed() * 31 + appCount * 7L + k);
        List<String> hosts = new ArrayList<>(topology.hosts());
        double[] times = new double[s.scenarios()];
        double[] pathTimes = new double[s.scenarios()];
        double[] cpuTimes = new double[s.scenarios()];
        long ports = 0;
        double oursSqpNanos = 0;
        double sqpNanos = 0;
        double ratioSum = 0;
        double ratioMax = 0;
        int sqpPorts = 0;
        int sqpFailures = 0;
        double perAppMs = Double.NaN;
        Allocator allocator = new Allocator(new MinSlowdownSolver(), LevelAssigner.INFINIBAND_LEVELS, 1.0);
        for (int sc = -1; sc < s.scenarios(); sc++) { // scenario −1 warms the JIT up and is not recorded
            boolean warmUp = sc < 0;
            List<Application> apps = new ArrayList<>(appCount);
            for (int a = 0; a < appCount; a++) {
                int m = rnd.nextInt(models.size());
                apps.add(new Application(String.format("app%04d", a), workload(m), models.get(m)));
            }
            long t0 = System.nanoTime();
            Map<PortId, BitSet> appsOnPort = place(appCount, hosts, rnd);
            Map<PortId, int[]> modelCounts = countModels(appsOnPort, apps, models);
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
            long planned = planAll(allocator, modelCounts, models, levelOfModel, plan, s.threads());
            double planMs = (System.nanoTime() - t1) / 1e6;
            double planCpuMs = (THREADS.getCurrentThreadCpuTime() - c1) / 1e6;
            if (planned != appsOnPort.size()) {
                throw new IllegalStateException("planned " + planned + " of " + appsOnPort.size() + " ports");
            }
            if (warmUp) {
                continue;
            }
            times[sc] = planMs;
            cpuTimes[sc] = planCpuMs;
            pathTimes[sc] = pathMs;
            ports += appsOnPort.size();
            if (sc == 0) {
                long t2 = System.nanoTime();
                for (Map.Entry<PortId, BitSet> e : appsOnPort.entrySet()) {
                    List<AppAtPort> onPort = new ArrayList<>(e.getValue().cardinality());
                    e.getValue().stream().forEach(i -> onPort.add(new AppAtPort(apps.get(i).id(),
                            apps.get(i).workload(), levelOfModel[models.indexOf(apps.get(i).model())],
                            apps.get(i).model(), 1)));
                    allocator.allocatePort(e.getKey(), topology.queues(e.getKey()), onPort, plan);
                }
                perAppMs = (System.nanoTime() - t2) / 1e6;
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
            progress.printf("\rfig12: %4d apps, k=%d, scenario %d/%d", appCount, k, sc + 1, s.scenarios());
        }
        progress.println();
        return new Row(appCount, k, s.scenarios(), (double) ports / s.scenarios(), percentile(times, 0.50),
                percentile(times, 0.99), s.threads() <= 1 ? percentile(cpuTimes, 0.99) : Double.NaN,
                percentile(pathTimes, 0.50), perAppMs, sqpPorts, sqpFailures,
                sqpPorts == 0 ? Double.NaN : sqpNanos / oursSqpNanos,
                sqpPorts == 0 ? Double.NaN : ratioSum / sqpPorts, sqpPorts == 0 ? Double.NaN : ratioMax);
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
    private long planAll(Allocator allocator, Map<PortId, int[]> modelCounts, List<SensitivityModel> models,
                         int[] levelOfModel, LevelPlan plan, int threads) {
        List<Map.Entry<PortId, int[]>> entries = new ArrayList<>(modelCounts.entrySet());
        if (threads <= 1) {
            long n = 0;
            for (Map.Entry<PortId, int[]> e : entries) {
                n += plan(allocator, e.getKey(), e.getValue(), models, levelOfModel, plan) ? 1 : 0;
            }
            return n;
        }
        try {
            return pool(threads).submit(() -> entries.parallelStream()
                    .filter(e -> plan(allocator, e.getKey(), e.getValue(), models, levelOfModel, plan))
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

    /** Plans one port from its model counts; true once done (the result is what a backend would be pushed). */
    private boolean plan(Allocator allocator, PortId port, int[] counts, List<SensitivityModel> models,
                         int[] levelOfModel, LevelPlan plan) {
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
        return allocator.planPort(PortDemand.ofGroups(port, present, presentCounts), topology.queues(port),
                presentLevels, plan) != null;
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

    static double percentile(double[] values, double q) {
        double[] v = values.clone();
        Arrays.sort(v);
        int idx = (int) Math.ceil(q * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, idx))];
    }
}
