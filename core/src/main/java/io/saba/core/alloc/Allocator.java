package io.saba.core.alloc;

import io.saba.core.cluster.LevelAssigner;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import io.saba.core.solve.PortSolver;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes Saba's allocation from scratch as a pure function of the registered applications, their connections
 * and the topology (paper §5.1–5.3): levels by K-means, a level hierarchy, and for every crossed switch output port
 * the Eq. 2 weights of the applications on it, summed per queue.
 *
 * <p>The hierarchy is built down to the smallest number of Saba queues (queues - 1) of any port of the topology.
 * The paper stops at the smallest queue count of the ports in use; the two give the same queue maps, because merging
 * is greedy and deterministic (a longer hierarchy only appends levels) and the first-fit rule never reaches past the
 * level that fits the smallest port in use — and the topology-wide bound keeps the hierarchy independent of which
 * ports happen to be in use, which the incremental {@link AllocationState} relies on.
 *
 * <p>Deterministic: applications are processed in id order. Thread-safe if the solver is.
 */
public final class Allocator {
    /** The queue the default level 0 maps to on every port. */
    public static final int DEFAULT_QUEUE = 0;

    private final PortSolver solver;
    private final LevelAssigner assigner;
    private final double cSaba;

    /**
     * @param solver the Eq. 2 solver
     * @param levels number of priority levels S the fabric carries, including default level 0 (16 IB, 8 Ethernet)
     * @param cSaba  C_Saba, the fraction of each link Saba's queues share, 0 &lt; C_Saba ≤ 1
     */
    public Allocator(PortSolver solver, int levels, double cSaba) {
        this(solver, new LevelAssigner(levels), cSaba);
    }

    /** As {@link #Allocator(PortSolver, int, double)}, with a configured level assigner (e.g. another seed). */
    public Allocator(PortSolver solver, LevelAssigner assigner, double cSaba) {
        this.solver = Objects.requireNonNull(solver, "solver");
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        if (!(cSaba > 0 && cSaba <= 1)) {
            throw new IllegalArgumentException("C_Saba must be in (0, 1], got " + cSaba);
        }
        this.cSaba = cSaba;
    }

    /** C_Saba, the fraction of each link Saba's queues share. */
    public double cSaba() {
        return cSaba;
    }

    /**
     * The whole allocation.
     *
     * @param applications registered applications (unique ids)
     * @param connections  their open connections; each must belong to a listed application and name known hosts
     * @throws IllegalArgumentException on duplicate application ids, a connection of an unknown application, or
     *                                  an unknown host
     */
    public AllocationResult allocate(Collection<Application> applications, Collection<Connection> connections,
                                     Topology topology) {
        Map<String, Application> apps = byId(applications);
        LevelAssignment levels = assignLevels(apps.values());
        LevelHierarchy hierarchy = hierarchy(levels, topology);
        Map<PortId, Set<String>> appsOnPort = new TreeMap<>();
        for (Connection c : connections) {
            if (!apps.containsKey(c.appId())) {
                throw new IllegalArgumentException("connection " + c + " belongs to unregistered application " + c.appId());
            }
            for (PortId port : topology.path(c.srcHost(), c.dstHost())) {
                appsOnPort.computeIfAbsent(port, p -> new TreeSet<>()).add(c.appId());
            }
        }
        Map<PortId, PortAllocation> ports = new TreeMap<>();
        for (Map.Entry<PortId, Set<String>> e : appsOnPort.entrySet()) {
            List<Application> present = new ArrayList<>();
            e.getValue().forEach(id -> present.add(apps.get(id)));
            ports.put(e.getKey(), allocatePort(e.getKey(), topology.queues(e.getKey()), present, levels, hierarchy));
        }
        return new AllocationResult(levels.levelOfApp(), levels.levelCentroids(), ports);
    }

    /** Application → level clustering (done on register / deregister only). */
    public LevelAssignment assignLevels(Collection<Application> applications) {
        Map<String, SensitivityModel> models = new HashMap<>();
        for (Application a : applications) {
            models.put(a.id(), a.model());
        }
        return assigner.assign(models);
    }

    /** The level hierarchy for an assignment, down to the topology's smallest count of Saba queues. */
    public LevelHierarchy hierarchy(LevelAssignment levels, Topology topology) {
        return hierarchy(levels, topology.minQueues());
    }

    /** The same for a fabric known only by its smallest port queue count (a discovered InfiniBand subnet). */
    public LevelHierarchy hierarchy(LevelAssignment levels, int minQueues) {
        return LevelHierarchy.build(levels.levelCentroids(), Math.max(1, minQueues - 1));
    }

    /**
     * One port's allocation: Eq. 2 over the applications present, levels fitted into queues 1..Q-1, queue weights
     * summed. Queue 0 carries level 0 and gets 1 - C_Saba; queues no level maps to get 0. A lone application gets
     * C_Saba without asking the solver.
     *
     * @param port         the port
     * @param queues       its queue count Q (≥ 2)
     * @param appsOnPort   the applications with at least one connection across the port (each once, non-empty)
     * @param levels       the current level assignment (must cover these applications)
     * @param hierarchy    the current level hierarchy
     */
    public PortAllocation allocatePort(PortId port, int queues, Collection<Application> appsOnPort,
                                       LevelAssignment levels, LevelHierarchy hierarchy) {
        if (queues < 2) {
            throw new IllegalArgumentException("port " + port + " needs at least 2 queues, has " + queues);
        }
        List<Application> apps = new ArrayList<>(appsOnPort);
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("port " + port + " has no applications to allocate for");
        }
        apps.sort((a, b) -> a.id().compareTo(b.id()));
        // Applications with the same model are interchangeable in Eq. 2 and share a level: solve per group.
        Map<SensitivityModel, Integer> groupOf = new HashMap<>();
        List<SensitivityModel> models = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        List<Integer> groupLevels = new ArrayList<>();
        int[] groupOfApp = new int[apps.size()];
        for (int i = 0; i < apps.size(); i++) {
            Application a = apps.get(i);
            Integer level = levels.levelOfApp().get(a.id());
            if (level == null) {
                throw new IllegalArgumentException("application " + a.id() + " has no priority level");
            }
            Integer g = groupOf.get(a.model());
            if (g == null || !groupLevels.get(g).equals(level)) {
                g = models.size();
                groupOf.put(a.model(), g);
                models.add(a.model());
                counts.add(0);
                groupLevels.add(level);
            }
            counts.set(g, counts.get(g) + 1);
            groupOfApp[i] = g;
        }
        QueuePlan plan = planPort(port, queues, models, counts.stream().mapToInt(Integer::intValue).toArray(),
                groupLevels.stream().mapToInt(Integer::intValue).toArray(), hierarchy);
        Map<String, Double> appWeights = new TreeMap<>();
        int[] next = new int[models.size()];
        for (int i = 0; i < apps.size(); i++) {
            int g = groupOfApp[i];
            appWeights.put(apps.get(i).id(), plan.shares().weight(g, next[g]++));
        }
        return new PortAllocation(port, plan.queueMap(), plan.queueWeights(), appWeights);
    }

    /**
     * One port's queues from groups of applications sharing a model: Eq. 2 per group, the levels present fitted
     * into queues 1..Q-1, queue weights summed. Queue 0 carries level 0 and gets 1 − C_Saba; queues no level maps
     * to get 0. A lone application gets C_Saba without asking the solver. The controller's hot path: its cost
     * grows with the distinct models on the port, not with its applications.
     *
     * @param queues     the port's queue count Q (≥ 2)
     * @param models     distinct models on the port
     * @param counts     applications per model
     * @param levelOf    each group's level
     * @param hierarchy  the current level hierarchy
     */
    public QueuePlan planPort(PortId port, int queues, List<SensitivityModel> models, int[] counts, int[] levelOf,
                              LevelHierarchy hierarchy) {
        if (queues < 2) {
            throw new IllegalArgumentException("port " + port + " needs at least 2 queues, has " + queues);
        }
        if (models.isEmpty()) {
            throw new IllegalArgumentException("port " + port + " has no applications to allocate for");
        }
        GroupSolution shares = models.size() == 1 && counts[0] == 1
                ? new GroupSolution(new double[][] {{cSaba}}, new int[][] {{1}}, models.get(0).slowdown(cSaba))
                : solver.solveGroups(models, counts, cSaba);
        long present = 0;
        for (int level : levelOf) {
            if (level <= LevelAssigner.DEFAULT_LEVEL || level >= 57) {
                throw new IllegalArgumentException("port " + port + ": level " + level + " is not a Saba level (1..56)");
            }
            present |= 1L << level;
        }
        int[] saba = hierarchy.queueArray(present, queues - 1);
        int[] queueOfLevel = new int[saba.length];
        queueOfLevel[LevelAssigner.DEFAULT_LEVEL] = DEFAULT_QUEUE;
        for (int level = 1; level < saba.length; level++) {
            queueOfLevel[level] = saba[level] < 0 ? -1 : saba[level] + 1;
        }
        double[] queueWeights = new double[queues];
        queueWeights[DEFAULT_QUEUE] = 1 - cSaba;
        for (int g = 0; g < models.size(); g++) {
            queueWeights[queueOfLevel[levelOf[g]]] += shares.total(g);
        }
        return new QueuePlan(queueOfLevel, queueWeights, shares);
    }

    /** Whether two port allocations say the same (value comparison, including the weight arrays). */
    public static boolean sameAllocation(PortAllocation a, PortAllocation b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.port().equals(b.port()) && a.queueOfLevel().equals(b.queueOfLevel())
                && Arrays.equals(a.queueWeights(), b.queueWeights()) && a.appWeights().equals(b.appWeights());
    }

    static Map<String, Application> byId(Collection<Application> applications) {
        Map<String, Application> apps = new TreeMap<>();
        for (Application a : applications) {
            if (apps.put(a.id(), a) != null) {
                throw new IllegalArgumentException("application " + a.id() + " is listed twice");
            }
        }
        return apps;
    }
}
