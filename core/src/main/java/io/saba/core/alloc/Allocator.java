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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Saba's allocation pipeline (paper §5.1–5.3), the one the controller, a controller group and the simulator run:
 *
 * <ol>
 *   <li>{@link #planLevels}, when the set of workloads changes: K-means over the workloads present puts each
 *       workload at a priority level (in the controller, running workloads keep theirs and newcomers are placed
 *       around them), and the levels' centroids are merged into a level hierarchy down to the smallest queue count
 *       of any port ({@link LevelPlan});</li>
 *   <li>{@link #allocatePort}, for each port whose applications changed: the port's applications grouped by model,
 *       the {@link PortWeightDecision} for their weights (Eq. 2 by default), the levels present fitted into queues
 *       1..Q-1 by the hierarchy, and each queue's weight summed from its applications'.</li>
 * </ol>
 *
 * <p>{@link #allocate} runs both from scratch over (applications, connections, topology): the reference the
 * incremental users are tested against.
 *
 * <p><b>Levels per application</b> ({@link LevelMode#APPLICATION}): the members of step 1 are the applications, each
 * with its workload's model ({@link LevelAssigner#assignApplications}), so applications of one workload sit on
 * levels of their own while levels are free. Step 2 then groups a port's applications by model alone for the weight
 * decision, whatever their levels: the decision sees exactly the demand it sees per workload, every application's
 * weight is the one it would have there (applications of one model are interchangeable, so Eq. 2 gives them one
 * share; solved as separate groups, a model that is non-convex where the optimum lies can come out with its
 * applications at different shares depending on the branch and bound's order, and convex ones equal only to the
 * solver's rounding), and a queue's weight is the sum of its applications' weights. Only the queues differ: two
 * applications of one workload on separate queues each get their own share as the queue's weight, on one queue the
 * two shares together.
 *
 * <p>The hierarchy is built down to the smallest number of Saba queues (queues - 1) of any port. The paper stops
 * at the smallest queue count of the ports in use; the two give the same queue maps, because merging is greedy
 * and deterministic (a longer hierarchy only appends levels) and the first-fit rule never reaches past the level
 * that fits the smallest port in use; and the fabric-wide bound keeps the plan independent of which ports
 * happen to be in use, so a plan is recomputed only when the workloads change.
 *
 * <p>Deterministic: applications are processed in id order. Thread-safe if the decision is.
 */
public final class Allocator {
    /** The queue the default level 0 maps to on every port. */
    public static final int DEFAULT_QUEUE = 0;

    private final PortWeightDecision weights;
    private final LevelAssigner assigner;
    private final double cSaba;
    private final LevelMode mode;

    /**
     * Eq. 2 per port, solved by {@code solver}.
     *
     * @param levels number of priority levels S the fabric carries, including default level 0 (16 IB, 8 Ethernet)
     * @param cSaba  C_Saba, the fraction of each link Saba's queues share, 0 &lt; C_Saba ≤ 1
     */
    public Allocator(PortSolver solver, int levels, double cSaba) {
        this(new MinSlowdownDecision(solver), new LevelAssigner(levels), cSaba);
    }

    /** A pipeline with another per-port decision or a configured level assigner (e.g. another seed). */
    public Allocator(PortWeightDecision weights, LevelAssigner assigner, double cSaba) {
        this(weights, assigner, cSaba, LevelMode.WORKLOAD);
    }

    /** As above, placing {@code mode}'s members on levels: workloads (the paper's) or applications. */
    public Allocator(PortWeightDecision weights, LevelAssigner assigner, double cSaba, LevelMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.weights = Objects.requireNonNull(weights, "weights");
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

    /** What this pipeline places on levels: workloads or applications. */
    public LevelMode mode() {
        return mode;
    }

    // ---- step 1: levels, when the workloads change ----

    /**
     * Levels for the members present, from scratch. Per workload, identical models always share a level, and so do
     * all applications of one workload; per application, each takes a level of its own while levels are free.
     *
     * @param modelOfWorkload every member with its model: every workload some application runs, or every
     *                        application under {@link LevelMode#APPLICATION}
     * @param minQueues       the smallest queue count of any port the plan will serve (≥ 2)
     */
    public LevelPlan planLevels(Map<String, SensitivityModel> modelOfWorkload, int minQueues) {
        return planOf(mode == LevelMode.APPLICATION
                ? assigner.assignApplications(modelOfWorkload, LevelAssignment.empty())
                : assigner.assign(modelOfWorkload), minQueues);
    }

    /**
     * Levels for the workloads present when {@code running} is in force: every workload it placed keeps its level,
     * newcomers are placed around them ({@link LevelAssigner#assign(Map, LevelAssignment)}: a level already on the
     * wire cannot be taken back from running connections). What the controller plans when the workloads change.
     */
    public LevelPlan planLevels(Map<String, SensitivityModel> modelOfWorkload, LevelPlan running, int minQueues) {
        return planLevels(modelOfWorkload, running, Set.of(), minQueues);
    }

    /**
     * The same, with {@code apart} the workloads nothing is known of yet: newcomers among them take levels of their
     * own while levels are free ({@link LevelAssigner#assign(Map, LevelAssignment, Set)}), what a controller that
     * learns from per-queue counts plans.
     */
    public LevelPlan planLevels(Map<String, SensitivityModel> modelOfWorkload, LevelPlan running, Set<String> apart,
                                int minQueues) {
        return planLevels(modelOfWorkload, running.levels(), apart, minQueues);
    }

    /**
     * The same with the levels on the wire given as member → level. Under {@link LevelMode#APPLICATION} the members
     * are applications, which keep their levels and newcomers are placed by
     * {@link LevelAssigner#assignApplications} ({@code apart} is moot there: every application is apart while
     * levels are free).
     */
    public LevelPlan planLevels(Map<String, SensitivityModel> modelOfMember, LevelAssignment running,
                                Set<String> apart, int minQueues) {
        return planOf(mode == LevelMode.APPLICATION
                ? assigner.assignApplications(modelOfMember, running)
                : assigner.assign(modelOfMember, running, apart), minQueues);
    }

    /**
     * The plan of levels assigned elsewhere (a controller group's leader logs the assignment; the hierarchy is a
     * deterministic function of its centroids and the queue count, rebuilt here in microseconds).
     */
    public LevelPlan planOf(LevelAssignment levels, int minQueues) {
        return planOf(levels, minQueues, mode);
    }

    /** {@link #planOf(LevelAssignment, int)} of members of {@code members}' kind (a logged plan says which). */
    public static LevelPlan planOf(LevelAssignment levels, int minQueues, LevelMode members) {
        return new LevelPlan(levels, LevelHierarchy.build(levels.levelCentroids(), Math.max(1, minQueues - 1)),
                members);
    }

    // ---- step 2: one port, when its applications change ----

    /**
     * One port's allocation. Applications are grouped by model instance and level (a port carries hundreds of
     * applications but only as many distinct models as workloads), so the cost grows with the workloads present.
     *
     * @param queues the port's queue count Q (≥ 2)
     * @param apps   the applications with at least one connection across the port (each once, non-empty)
     */
    public PortAllocation allocatePort(PortId port, int queues, List<AppAtPort> apps, LevelPlan plan) {
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("port " + port + " has no applications to allocate for");
        }
        return allocatePort(port, queues, PortApps.of(apps), plan);
    }

    /**
     * One port's allocation from its applications already in id order (what a controller keeps per port). The
     * same as {@link #allocatePort(PortId, int, List, LevelPlan)} on the same applications, bit for bit.
     */
    public PortAllocation allocatePort(PortId port, int queues, PortApps apps, LevelPlan plan) {
        int n = apps.size();
        if (n == 0) {
            throw new IllegalArgumentException("port " + port + " has no applications to allocate for");
        }
        if (mode == LevelMode.APPLICATION) {
            return allocateByModel(port, queues, apps, plan);
        }
        // groups in the order their first application (by id) appears; an application whose model's latest group
        // has another level starts a new group. The order and counts are the solver's input, so they fix its bits.
        List<SensitivityModel> models = new ArrayList<>();
        int[] levels = new int[Math.min(n, 16)];
        int[] counts = new int[levels.length];
        int[] groupOfApp = new int[n];
        int[] latestGroupOfModel = new int[apps.modelIdBound()];
        Arrays.fill(latestGroupOfModel, -1);
        for (int i = 0; i < n; i++) {
            int model = apps.modelId(i);
            int level = apps.level(i);
            int g = latestGroupOfModel[model];
            if (g < 0 || levels[g] != level) {
                g = models.size();
                latestGroupOfModel[model] = g;
                models.add(apps.model(i));
                if (g == levels.length) {
                    levels = Arrays.copyOf(levels, 2 * g);
                    counts = Arrays.copyOf(counts, 2 * g);
                }
                levels[g] = level;
            }
            counts[g]++;
            groupOfApp[i] = g;
        }
        int groups = models.size();
        // no warm start here: a port's allocation must be the same bits whether computed incrementally, from
        // scratch or after a replay (the Recomputer pushes a port when its weights differ at all)
        PortDemand demand = new PortDemand(port, models, Arrays.copyOf(counts, groups), apps.asList(), groupOfApp);
        QueuePlan q = planPort(demand, queues, Arrays.copyOf(levels, groups), plan);
        return new PortAllocation(port, q.queueMap(), q.queueWeights(),
                new AppWeights(apps.idArray(), demand.weightArray(q.shares())), q.shares().objective());
    }

    /**
     * One port under {@link LevelMode#APPLICATION}: applications grouped by model alone (equal models in one group,
     * in the order their first application appears), the weight decision on those groups, each application's weight
     * added to its level's queue. See the class comment for why the groups ignore the levels.
     */
    private PortAllocation allocateByModel(PortId port, int queues, PortApps apps, LevelPlan plan) {
        int n = apps.size();
        List<SensitivityModel> models = new ArrayList<>();
        Map<SensitivityModel, Integer> groupOfModel = new java.util.HashMap<>();
        int[] groupOfModelId = new int[apps.modelIdBound()];
        Arrays.fill(groupOfModelId, -1);
        int[] counts = new int[Math.min(n, 16)];
        int[] groupOfApp = new int[n];
        int[] levelOfApp = new int[n];
        for (int i = 0; i < n; i++) {
            int id = apps.modelId(i);
            int g = groupOfModelId[id];
            if (g < 0) {
                SensitivityModel m = apps.model(i);
                Integer known = groupOfModel.get(m); // another instance of an equal model joins its group
                if (known == null) {
                    known = models.size();
                    groupOfModel.put(m, known);
                    models.add(m);
                    if (known == counts.length) {
                        counts = Arrays.copyOf(counts, 2 * known);
                    }
                }
                g = known;
                groupOfModelId[id] = g;
            }
            counts[g]++;
            groupOfApp[i] = g;
            levelOfApp[i] = apps.level(i);
        }
        PortDemand demand = new PortDemand(port, models, Arrays.copyOf(counts, models.size()), apps.asList(),
                groupOfApp);
        checkQueues(port, queues);
        long present = presentLevels(port, levelOfApp);
        GroupSolution shares = weights.decide(demand, cSaba);
        int[] queueOfLevel = queueOfLevel(plan, present, queues);
        double[] appWeights = demand.weightArray(shares);
        double[] queueWeights = new double[queues];
        queueWeights[DEFAULT_QUEUE] = 1 - cSaba;
        for (int i = 0; i < n; i++) {
            queueWeights[queueOfLevel[levelOfApp[i]]] += appWeights[i];
        }
        QueuePlan q = new QueuePlan(queueOfLevel, queueWeights, shares);
        return new PortAllocation(port, q.queueMap(), queueWeights, new AppWeights(apps.idArray(), appWeights),
                shares.objective());
    }

    private static void checkQueues(PortId port, int queues) {
        if (queues < 2) {
            throw new IllegalArgumentException("port " + port + " needs at least 2 queues, has " + queues);
        }
    }

    /** The levels as a bit mask; each must be a Saba level (1..56). */
    private static long presentLevels(PortId port, int[] levels) {
        long present = 0;
        for (int level : levels) {
            if (level <= LevelAssigner.DEFAULT_LEVEL || level >= 57) {
                throw new IllegalArgumentException("port " + port + ": level " + level + " is not a Saba level (1..56)");
            }
            present |= 1L << level;
        }
        return present;
    }

    /** Level → queue on a port with {@code queues} queues: level 0 → queue 0, the present levels by the hierarchy. */
    private static int[] queueOfLevel(LevelPlan plan, long present, int queues) {
        int[] saba = plan.hierarchy().queueArray(present, queues - 1);
        int[] queueOfLevel = new int[saba.length];
        queueOfLevel[LevelAssigner.DEFAULT_LEVEL] = DEFAULT_QUEUE;
        for (int level = 1; level < saba.length; level++) {
            queueOfLevel[level] = saba[level] < 0 ? -1 : saba[level] + 1;
        }
        return queueOfLevel;
    }

    /**
     * One port's queues from its demand: the weight decision, the levels present fitted into queues 1..Q-1, queue
     * weights summed from the groups'. Queue 0 carries level 0 and gets 1 − C_Saba; queues no level maps to get 0.
     * The hot path of {@link #allocatePort}, public for the overhead benchmark (which solves ports from their
     * model counts, {@link PortDemand#ofGroups}).
     *
     * @param queues  the port's queue count Q (≥ 2)
     * @param levelOf each group's level
     */
    public QueuePlan planPort(PortDemand demand, int queues, int[] levelOf, LevelPlan plan) {
        PortId port = demand.port();
        checkQueues(port, queues);
        if (demand.models().isEmpty()) {
            throw new IllegalArgumentException("port " + port + " has no applications to allocate for");
        }
        long present = presentLevels(port, levelOf);
        GroupSolution shares = weights.decide(demand, cSaba);
        int[] queueOfLevel = queueOfLevel(plan, present, queues);
        double[] queueWeights = new double[queues];
        queueWeights[DEFAULT_QUEUE] = 1 - cSaba;
        for (int g = 0; g < demand.models().size(); g++) {
            queueWeights[queueOfLevel[levelOf[g]]] += shares.total(g);
        }
        return new QueuePlan(queueOfLevel, queueWeights, shares);
    }

    // ---- both steps from scratch ----

    /**
     * The whole allocation from scratch: levels over the applications' workloads, then every crossed port.
     *
     * @param applications registered applications (unique ids; one model per workload)
     * @param connections  their open connections; each must belong to a listed application and name known hosts
     * @throws IllegalArgumentException on duplicate application ids, a workload with two models, a connection of
     *                                  an unknown application, or an unknown host
     */
    public AllocationResult allocate(Collection<Application> applications, Collection<Connection> connections,
                                     Topology topology) {
        Map<String, Application> apps = new TreeMap<>();
        Map<String, SensitivityModel> modelOfWorkload = new TreeMap<>();
        Map<String, SensitivityModel> modelOfApp = new TreeMap<>();
        for (Application a : applications) {
            if (apps.put(a.id(), a) != null) {
                throw new IllegalArgumentException("application " + a.id() + " is listed twice");
            }
            SensitivityModel before = modelOfWorkload.putIfAbsent(a.workload(), a.model());
            if (before != null && !before.equals(a.model())) {
                throw new IllegalArgumentException("workload " + a.workload() + " has two models (application "
                        + a.id() + ")");
            }
            modelOfApp.put(a.id(), a.model());
        }
        LevelPlan plan = planLevels(mode == LevelMode.APPLICATION ? modelOfApp : modelOfWorkload,
                topology.minQueues());
        Map<PortId, Map<String, Integer>> appsOnPort = new TreeMap<>();
        for (Connection c : connections) {
            if (!apps.containsKey(c.appId())) {
                throw new IllegalArgumentException("connection " + c + " belongs to unregistered application " + c.appId());
            }
            for (PortId port : topology.path(c.srcHost(), c.dstHost())) {
                appsOnPort.computeIfAbsent(port, p -> new TreeMap<>()).merge(c.appId(), 1, Integer::sum);
            }
        }
        Map<PortId, PortAllocation> ports = new TreeMap<>();
        for (Map.Entry<PortId, Map<String, Integer>> e : appsOnPort.entrySet()) {
            List<AppAtPort> present = new ArrayList<>();
            e.getValue().forEach((id, flows) -> {
                String w = apps.get(id).workload();
                present.add(new AppAtPort(id, w, plan.levelOf(id, w), modelOfWorkload.get(w), flows));
            });
            ports.put(e.getKey(), allocatePort(e.getKey(), topology.queues(e.getKey()), present, plan));
        }
        Map<String, Integer> levelOfApp = new TreeMap<>();
        apps.forEach((id, a) -> levelOfApp.put(id, plan.levelOf(id, a.workload())));
        return new AllocationResult(levelOfApp, plan.levels().levelCentroids(), ports);
    }

    /**
     * What a port's Saba queues do, whatever the levels are numbered: the members (applications or workloads)
     * whose levels share each queue → that queue's weight. Two allocations of one port whose levels differ only in
     * their numbers (a controller's stable levels and a plan from scratch, see
     * {@link LevelAssigner#assign(Map, LevelAssignment)}) give the same. Read from the level→queue map and the queue
     * weights alone, what a switch holds.
     *
     * @param levelOf each member's level
     */
    public static Map<java.util.Set<String>, Double> queuesByMembers(PortAllocation p, Map<String, Integer> levelOf) {
        Map<Integer, java.util.Set<String>> membersOfQueue = new TreeMap<>();
        p.queueOfLevel().forEach((level, queue) -> {
            if (level != LevelAssigner.DEFAULT_LEVEL) {
                java.util.Set<String> members = membersOfQueue.computeIfAbsent(queue, q -> new java.util.TreeSet<>());
                levelOf.forEach((m, l) -> {
                    if (l.equals(level)) {
                        members.add(m);
                    }
                });
            }
        });
        Map<java.util.Set<String>, Double> out = new java.util.HashMap<>();
        double[] weights = p.queueWeights();
        membersOfQueue.forEach((q, members) -> out.put(java.util.Set.copyOf(members), weights[q]));
        return out;
    }

    /** Whether two port allocations say the same (value comparison, including the weight arrays). */
    public static boolean sameAllocation(PortAllocation a, PortAllocation b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.port().equals(b.port()) && a.queueOfLevel().equals(b.queueOfLevel())
                && Arrays.equals(a.queueWeights(), b.queueWeights()) && a.appWeights().equals(b.appWeights());
    }
}
