package io.saba.controller.alloc;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine backed by core's {@link Allocator}: levels by K-means over the distinct workloads present (apps of
 * one workload have identical models, and identical models always share a level), the level hierarchy built to the
 * topology's smallest queue count, and Eq. 2 per port.
 */
public final class CoreAllocationEngine implements AllocationEngine {
    private final Allocator allocator;
    private final Topology topology;

    private record CorePlan(LevelAssignment byWorkload, LevelHierarchy hierarchy) {
    }

    public CoreAllocationEngine(Allocator allocator, Topology topology) {
        this.allocator = allocator;
        this.topology = topology;
    }

    @Override
    public LevelPlan plan(Map<String, SensitivityModel> modelOfWorkload) {
        List<Application> workloads = new ArrayList<>();
        modelOfWorkload.forEach((w, m) -> workloads.add(new Application(w, w, m)));
        LevelAssignment a = allocator.assignLevels(workloads);
        return new LevelPlan(a.levelOfApp(), new CorePlan(a, allocator.hierarchy(a, topology)));
    }

    @Override
    public PortAllocation allocatePort(LevelPlan plan, PortId port, int queues, List<AppAtPort> apps) {
        CorePlan core = (CorePlan) plan.engineState();
        List<Application> onPort = new ArrayList<>(apps.size());
        Map<String, Integer> levelOfApp = new HashMap<>();
        for (AppAtPort a : apps) {
            onPort.add(new Application(a.appId(), "", a.model()));
            levelOfApp.put(a.appId(), a.level());
        }
        LevelAssignment levels = new LevelAssignment(levelOfApp, core.byWorkload().levelCentroids());
        return allocator.allocatePort(port, queues, onPort, levels, core.hierarchy());
    }
}
