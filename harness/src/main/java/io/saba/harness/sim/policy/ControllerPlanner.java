package io.saba.harness.sim.policy;

import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.controller.alloc.CorunSearches;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
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
 * Saba's controller in the simulator: the allocation pipeline the controller runs ({@link AllocationPipeline}: core's
 * {@link Allocator} with Eq. 2 or the co-run predictor per port), called the way the controller calls it: levels planned per workload over the workloads present, then every port the
 * applications' flows cross allocated from the applications on it, with models looked up in the same
 * {@link ModelCatalog}. Two modes, as in paper §5.4:
 * <ul>
 *   <li>centralised: levels and hierarchy from the workloads running now, recomputed on every change (what the
 *       controller does);</li>
 *   <li>distributed: levels and hierarchy planned once, offline, over every workload of the sensitivity table; each
 *       port then only decides the weights of the applications on it.</li>
 * </ul>
 * With {@link LevelMode#APPLICATION} (the controller's {@code level-per: application}, centralised only) the
 * levels are planned over the applications present, each with its workload's model.
 *
 * <p>Ports: every port an application's flows cross, including host NICs (InfiniBand HCAs arbitrate their VLs with
 * the same tables as switches). Every port gets {@code queues} Saba queues plus the default queue 0, which gets
 * 1 − C_Saba.
 */
public final class ControllerPlanner implements SabaPlanner {
    private final ModelCatalog catalog;
    private final Pipeline pipeline;
    private final Allocator allocator;
    private final int portQueues;
    private final LevelPlan offline;
    /** Models a controller put in force in place of the table's ({@link #withModels}), by table key. */
    private final Map<String, SensitivityModel> inForce;

    /**
     * What builds the controller's pipeline: enough to build a fresh one (with no per-port memory) per run. The
     * co-run weight searches, pure functions of the workloads on a port, are shared by all runs.
     */
    private record Pipeline(Allocation allocation, PortSolver solver, int levels, double cSaba,
                            CorunSearches searches, LevelMode levelMode) {
        Allocator build(ModelCatalog catalog) {
            return AllocationPipeline.build(allocation, solver, catalog::profileOf, levels, cSaba,
                    AllocationPipeline.DEFAULT_CORUN_MARGIN, searches, levelMode);
        }
    }

    private ControllerPlanner(ModelCatalog catalog, Pipeline pipeline, int portQueues, LevelPlan offline,
                              Map<String, SensitivityModel> inForce) {
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.allocator = pipeline.build(catalog);
        this.portQueues = portQueues;
        this.offline = offline;
        this.inForce = inForce;
    }

    private static ControllerPlanner of(SensitivityTable table, Pipeline pipeline, int queues, boolean distributed) {
        ModelCatalog catalog = ModelCatalog.fromTable(table);
        LevelPlan offline = distributed ? pipeline.build(catalog).planLevels(catalog.models(), queues + 1) : null;
        return new ControllerPlanner(catalog, pipeline, queues + 1, offline, Map.of());
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
        return centralised(table, solver, Allocation.EQ2, levels, queues, cSaba);
    }

    /**
     * As {@link #centralised(SensitivityTable, PortSolver, int, int, double)} with the controller's
     * {@code allocation:} setting; with {@link Allocation#CORUN} a port's weights come from the co-run predictor on
     * the table's traffic records, behind the do-no-harm rule, as in the controller.
     */
    public static ControllerPlanner centralised(SensitivityTable table, PortSolver solver, Allocation allocation,
                                                int levels, int queues, double cSaba) {
        return centralised(table, solver, allocation, levels, queues, cSaba, LevelMode.WORKLOAD);
    }

    /**
     * As {@link #centralised(SensitivityTable, PortSolver, Allocation, int, int, double)} with the controller's
     * {@code level-per:} setting: with {@link LevelMode#APPLICATION} each application is a member of the level plan.
     */
    public static ControllerPlanner centralised(SensitivityTable table, PortSolver solver, Allocation allocation,
                                                int levels, int queues, double cSaba, LevelMode levelPer) {
        return of(table, new Pipeline(allocation, solver, levels, cSaba, new CorunSearches(), levelPer), queues,
                false);
    }

    /** As {@link #centralised}, with levels and hierarchy fixed offline from the table (paper §5.4). */
    public static ControllerPlanner distributed(SensitivityTable table, PortSolver solver, int levels, int queues,
                                                double cSaba) {
        return of(table, new Pipeline(Allocation.EQ2, solver, levels, cSaba, new CorunSearches(),
                LevelMode.WORKLOAD), queues, true);
    }

    /** The co-run allocation remembers each port's weights (hysteresis): a run starts with none remembered. */
    @Override
    public SabaPlanner fresh() {
        return new ControllerPlanner(catalog, pipeline, portQueues, offline, inForce);
    }

    /**
     * This planner allocating with the models a controller's {@code sensitivity: online|blended} put in force
     * (e.g. {@code RunLearning.inForce}) where it has one, the table's (or the default) model elsewhere: the
     * controller's {@code ControllerState.modelOf}. Centralised only: the distributed mode's levels are planned
     * offline from the table.
     */
    public ControllerPlanner withModels(Map<String, SensitivityModel> models) {
        if (offline != null) {
            throw new IllegalStateException("the distributed mode plans its levels from the table alone");
        }
        Map<String, SensitivityModel> keyed = new TreeMap<>();
        models.forEach((w, m) -> keyed.put(SensitivityTable.key(w), m));
        return new ControllerPlanner(catalog, pipeline, portQueues, null, Map.copyOf(keyed));
    }

    /** The table's models, as the controller looks them up. */
    public ModelCatalog catalog() {
        return catalog;
    }

    /** The model a workload's applications are allocated with. */
    public SensitivityModel modelOf(String workload) {
        SensitivityModel m = inForce.get(SensitivityTable.key(workload));
        return m != null ? m : catalog.modelOf(workload);
    }

    @Override
    public SabaPlan plan(List<AppPresence> apps) {
        LevelPlan plan = offline;
        if (plan == null) {
            Map<String, SensitivityModel> members = new TreeMap<>();
            for (AppPresence a : apps) {
                members.put(allocator.mode() == LevelMode.APPLICATION ? a.appId() : a.workload(),
                        modelOf(a.workload()));
            }
            plan = allocator.planLevels(members, portQueues);
        }
        Map<String, Integer> levelOfApp = new HashMap<>();
        Map<PortId, List<AppAtPort>> onPort = new TreeMap<>();
        for (AppPresence a : apps) {
            int level = offline == null ? plan.levelOf(a.appId(), a.workload())
                    : plan.levelOf(SensitivityTable.key(a.workload()));
            levelOfApp.put(a.appId(), level);
            for (PortId p : a.ports()) {
                onPort.computeIfAbsent(p, k -> new ArrayList<>()).add(new AppAtPort(a.appId(), a.workload(), level,
                        modelOf(a.workload()), 1));
            }
        }
        Map<PortId, PortAllocation> ports = new HashMap<>();
        for (Map.Entry<PortId, List<AppAtPort>> e : onPort.entrySet()) {
            ports.put(e.getKey(), allocator.allocatePort(e.getKey(), portQueues, e.getValue(), plan));
        }
        return new SabaPlan(levelOfApp, ports);
    }
}
