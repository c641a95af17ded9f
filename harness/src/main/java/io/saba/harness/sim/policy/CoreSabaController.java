package io.saba.harness.sim.policy;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Saba's controller as the core computes it: the core's {@link Allocator} clusters applications into levels
 * (K-means), builds the level hierarchy and allocates every port (Eq. 2, levels fitted into the port's queues,
 * queue weights summed). Two modes, as in paper §5.4:
 * <ul>
 *   <li>centralised: levels and hierarchy from the applications running now, recomputed on every change;</li>
 *   <li>distributed: levels and hierarchy computed once, offline, from one application per workload of the
 *       sensitivity table; each port then only solves Eq. 2 for the applications on it.</li>
 * </ul>
 * Ports: every port an application's flows cross, including host NICs (InfiniBand HCAs arbitrate their VLs with
 * the same tables as switches). Every port gets {@code queues} Saba queues plus the default queue 0, which gets
 * 1 − C_Saba.
 */
public final class CoreSabaController implements SabaController {
    private final SensitivityTable table;
    private final Allocator allocator;
    private final int queues;
    private final LevelAssignment offlineLevels;
    private final LevelHierarchy offlineHierarchy;

    private CoreSabaController(SensitivityTable table, Allocator allocator, int queues, boolean distributed) {
        this.table = table;
        this.allocator = allocator;
        this.queues = queues;
        if (distributed) {
            List<Application> one = new ArrayList<>();
            table.entries().forEach((w, e) -> one.add(new Application("offline:" + w, w, e.model())));
            offlineLevels = allocator.assignLevels(one);
            offlineHierarchy = LevelHierarchy.build(offlineLevels.levelCentroids(), Math.max(1, queues));
        } else {
            offlineLevels = null;
            offlineHierarchy = null;
        }
    }

    /**
     * @param table    sensitivity models
     * @param solver   Eq. 2 solver
     * @param levels   priority levels S, including the default level 0 (16 on InfiniBand)
     * @param queues   Saba queues per port (the port has one more, for the default class)
     * @param cSaba    C_Saba
     */
    public static CoreSabaController centralised(SensitivityTable table, PortSolver solver, int levels, int queues,
                                                 double cSaba) {
        return new CoreSabaController(table, new Allocator(solver, new LevelAssigner(levels), cSaba), queues, false);
    }

    /** As {@link #centralised}, with levels and hierarchy fixed offline from the table (paper §5.4). */
    public static CoreSabaController distributed(SensitivityTable table, PortSolver solver, int levels, int queues,
                                                 double cSaba) {
        return new CoreSabaController(table, new Allocator(solver, new LevelAssigner(levels), cSaba), queues, true);
    }

    private SensitivityModel model(String workload) {
        return table.find(workload).map(TableEntry::model).orElse(SensitivityModel.flat());
    }

    @Override
    public SabaPlan plan(List<AppPresence> apps) {
        Map<String, Application> byId = new TreeMap<>();
        for (AppPresence a : apps) {
            byId.put(a.appId(), new Application(a.appId(), a.workload(), model(a.workload())));
        }
        LevelAssignment levels;
        LevelHierarchy hierarchy;
        if (offlineLevels == null) {
            levels = allocator.assignLevels(byId.values());
            hierarchy = LevelHierarchy.build(levels.levelCentroids(), Math.max(1, queues));
        } else {
            Map<String, Integer> lv = new HashMap<>();
            for (AppPresence a : apps) {
                lv.put(a.appId(), offlineLevels.levelOf("offline:" + table.find(a.workload())
                        .map(TableEntry::workload).orElse(a.workload())));
            }
            levels = new LevelAssignment(lv, offlineLevels.levelCentroids());
            hierarchy = offlineHierarchy;
        }
        Map<PortId, List<Application>> onPort = new TreeMap<>();
        for (AppPresence a : apps) {
            for (PortId p : a.ports()) {
                onPort.computeIfAbsent(p, k -> new ArrayList<>()).add(byId.get(a.appId()));
            }
        }
        Map<PortId, PortAllocation> ports = new HashMap<>();
        onPort.forEach((p, present) -> ports.put(p,
                allocator.allocatePort(p, queues + 1, present, levels, hierarchy)));
        return new SabaPlan(levels.levelOfApp(), ports);
    }
}
