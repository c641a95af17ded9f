package io.saba.controller.alloc;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.alloc.QueuePlan;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine backed by core's {@link Allocator}: levels by K-means over the distinct workloads present (apps of
 * one workload have identical models, and identical models always share a level), the level hierarchy built to the
 * topology's smallest queue count, and Eq. 2 per port.
 */
public final class CoreAllocationEngine implements AllocationEngine {
    private final Allocator allocator;
    private final int minQueues;
    private final CorunWeighting corun;

    private record CorePlan(LevelAssignment byWorkload, LevelHierarchy hierarchy) {
    }

    public CoreAllocationEngine(Allocator allocator, Topology topology) {
        this(allocator, topology.minQueues());
    }

    /** @param minQueues the smallest queue count of any port the engine will be asked about */
    public CoreAllocationEngine(Allocator allocator, int minQueues) {
        this(allocator, minQueues, null);
    }

    /** @param corun the co-run weighting that replaces Eq. 2's weights where it can, or null for Eq. 2 only */
    public CoreAllocationEngine(Allocator allocator, int minQueues, CorunWeighting corun) {
        this.allocator = allocator;
        this.minQueues = minQueues;
        this.corun = corun;
    }

    /** The co-run weighting, or null when the engine uses Eq. 2 alone. */
    public CorunWeighting corun() {
        return corun;
    }

    @Override
    public LevelPlan plan(Map<String, SensitivityModel> modelOfWorkload) {
        List<Application> workloads = new ArrayList<>();
        modelOfWorkload.forEach((w, m) -> workloads.add(new Application(w, w, m)));
        return planOf(allocator.assignLevels(workloads));
    }

    /**
     * The plan of an assignment computed elsewhere (a controller group's leader publishes the assignment; the
     * hierarchy is a deterministic function of its centroids and the topology, rebuilt here in microseconds).
     */
    public LevelPlan planOf(LevelAssignment a) {
        return new LevelPlan(a.levelOfApp(), new CorePlan(a, allocator.hierarchy(a, minQueues)));
    }

    /** The assignment (workload → level, level centroids) a plan of this engine was built from. */
    public static LevelAssignment assignmentOf(LevelPlan plan) {
        return plan.engineState() == null ? LevelAssignment.empty() : ((CorePlan) plan.engineState()).byWorkload();
    }

    /**
     * Groups the port's applications itself and calls core's {@link Allocator#planPort}, whose cost grows with the
     * distinct models on the port rather than with its applications (hundreds on a core port).
     */
    @Override
    public PortAllocation allocatePort(LevelPlan plan, PortId port, int queues, List<AppAtPort> apps) {
        CorePlan core = (CorePlan) plan.engineState();
        // models come from the catalogue, one instance per workload: group by identity (no hashing of
        // coefficient arrays), and split a group if two levels ever share a model instance
        Map<SensitivityModel, Integer> groupOf = new IdentityHashMap<>();
        List<SensitivityModel> models = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        int[] counts = new int[apps.size()];
        int[] groupOfApp = new int[apps.size()];
        for (int i = 0; i < apps.size(); i++) {
            AppAtPort a = apps.get(i);
            Integer g = groupOf.get(a.model());
            if (g == null || levels.get(g) != a.level()) {
                g = models.size();
                groupOf.put(a.model(), g);
                models.add(a.model());
                levels.add(a.level());
            }
            counts[g]++;
            groupOfApp[i] = g;
        }
        int[] levelOf = levels.stream().mapToInt(Integer::intValue).toArray();
        QueuePlan q = allocator.planPort(port, queues, models, Arrays.copyOf(counts, models.size()), levelOf,
                core.hierarchy());
        Map<String, Double> appWeights = new HashMap<>(apps.size() * 2);
        int[] next = new int[models.size()];
        for (int i = 0; i < apps.size(); i++) {
            int g = groupOfApp[i];
            appWeights.put(apps.get(i).appId(), q.shares().weight(g, next[g]++));
        }
        Map<String, Double> chosen = corun == null ? null : corun.weights(port, apps, appWeights);
        if (chosen == null) {
            return new PortAllocation(port, q.queueMap(), q.queueWeights(), appWeights);
        }
        // the queue map stays the level hierarchy's; the queues' weights are the sums of their applications'
        double[] queueWeights = new double[queues];
        queueWeights[Allocator.DEFAULT_QUEUE] = 1 - allocator.cSaba();
        for (AppAtPort a : apps) {
            queueWeights[q.queueOfLevel()[a.level()]] += chosen.get(a.appId());
        }
        return new PortAllocation(port, q.queueMap(), queueWeights, chosen);
    }
}
