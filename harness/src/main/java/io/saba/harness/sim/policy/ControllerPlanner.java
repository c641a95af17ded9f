package io.saba.harness.sim.policy;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.MinSlowdownDecision;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.table.SensitivityTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Saba's controller in the simulator: the allocation pipeline the controller runs (core's {@link Allocator}), called
 * the way the controller calls it: levels planned per workload over the workloads present, then every port the
 * applications' flows cross allocated from the applications on it, with models looked up in the same
 * {@link ModelCatalog}. Two modes, as in paper §5.4:
 * <ul>
 *   <li>centralised: levels and hierarchy from the workloads running now, recomputed on every change (what the
 *       controller does);</li>
 *   <li>distributed: levels and hierarchy planned once, offline, over every workload of the sensitivity table; each
 *       port then only decides the weights of the applications on it.</li>
 * </ul>
 * Ports: every port an application's flows cross, including host NICs (InfiniBand HCAs arbitrate their VLs with
 * the same tables as switches). Every port gets {@code queues} Saba queues plus the default queue 0, which gets
 * 1 − C_Saba.
 */
public final class ControllerPlanner implements SabaPlanner {
    private final ModelCatalog catalog;
    private final Allocator allocator;
    private final int portQueues;
    private final LevelPlan offline;

    private ControllerPlanner(SensitivityTable table, Allocator allocator, int queues, boolean distributed) {
        this.catalog = ModelCatalog.fromTable(table);
        this.allocator = allocator;
        this.portQueues = queues + 1;
        this.offline = distributed ? allocator.planLevels(catalog.models(), portQueues) : null;
    }

    /**
     * @param table  sensitivity models
     * @param solver Eq. 2 solver
     * @param levels priority levels S, including the default level 0 (16 on InfiniBand)
     * @param queues Saba queues per port (the port has one more, for the default class)
     * @param cSaba  C_Saba
     */
    public static ControllerPlanner centralised(SensitivityTable table, PortSolver solver, int levels, int queues,
                                                double cSaba) {
        return new ControllerPlanner(table, pipeline(solver, levels, cSaba), queues, false);
    }

    /** As {@link #centralised}, with levels and hierarchy fixed offline from the table (paper §5.4). */
    public static ControllerPlanner distributed(SensitivityTable table, PortSolver solver, int levels, int queues,
                                                double cSaba) {
        return new ControllerPlanner(table, pipeline(solver, levels, cSaba), queues, true);
    }

    private static Allocator pipeline(PortSolver solver, int levels, double cSaba) {
        return new Allocator(new MinSlowdownDecision(solver), new LevelAssigner(levels), cSaba);
    }

    @Override
    public SabaPlan plan(List<AppPresence> apps) {
        LevelPlan plan = offline;
        if (plan == null) {
            Map<String, SensitivityModel> workloads = new TreeMap<>();
            for (AppPresence a : apps) {
                workloads.put(a.workload(), catalog.modelOf(a.workload()));
            }
            plan = allocator.planLevels(workloads, portQueues);
        }
        Map<String, Integer> levelOfApp = new HashMap<>();
        Map<PortId, List<AppAtPort>> onPort = new TreeMap<>();
        for (AppPresence a : apps) {
            int level = plan.levelOf(offline == null ? a.workload() : SensitivityTable.key(a.workload()));
            levelOfApp.put(a.appId(), level);
            for (PortId p : a.ports()) {
                onPort.computeIfAbsent(p, k -> new ArrayList<>()).add(new AppAtPort(a.appId(), a.workload(), level,
                        catalog.modelOf(a.workload()), 1));
            }
        }
        Map<PortId, PortAllocation> ports = new HashMap<>();
        for (Map.Entry<PortId, List<AppAtPort>> e : onPort.entrySet()) {
            ports.put(e.getKey(), allocator.allocatePort(e.getKey(), portQueues, e.getValue(), plan));
        }
        return new SabaPlan(levelOfApp, ports);
    }
}
