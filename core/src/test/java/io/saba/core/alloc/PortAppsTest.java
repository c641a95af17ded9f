package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.testing.Workloads;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A port's allocation from its applications kept in id order ({@link PortApps}, what the controller snapshots) is
 * the allocation the per-record pipeline computed before that representation existed, bit for bit: the reference
 * below is that pipeline (sort by id, group by model instance and level in order of appearance, solve, give the
 * k-th application of a group the group's k-th weight).
 */
class PortAppsTest {
    private static final PortId PORT = new PortId("s0", 1);
    /** The most groups a reference port had: the test must reach past the allocator's short group search. */
    private int mostGroups;

    @Test
    void theSortedArraysGiveTheSameBitsAsThePerRecordPipeline() {
        Map<String, SensitivityModel> table = Workloads.hibench();
        List<String> workloads = new ArrayList<>(table.keySet());
        Allocator allocator = new Allocator(new MinSlowdownSolver(), 16, 0.9);
        LevelPlan plan = allocator.planLevels(table, 4);
        Random r = new Random(19);
        for (int port = 0; port < 300; port++) {
            int n = port < 10 ? port + 1 : 1 + r.nextInt(port % 3 == 0 ? 400 : 40);
            List<AppAtPort> apps = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String w = workloads.get(r.nextInt(port % 5 == 0 ? 2 : workloads.size()));
                // now and then a model under another workload's level: such an application starts a new group
                int level = r.nextInt(20) == 0 ? plan.levelOf(workloads.get(r.nextInt(workloads.size())))
                        : plan.levelOf(w);
                apps.add(new AppAtPort("app-" + r.nextInt(1_000_000) + "-" + i, w, level, table.get(w),
                        1 + r.nextInt(3)));
            }
            java.util.Collections.shuffle(apps, r);
            int queues = 4 + r.nextInt(5); // the plan is built down to 4 queues
            PortAllocation expected = reference(allocator, queues, apps, plan);
            PortAllocation got = allocator.allocatePort(PORT, queues, apps, plan);
            assertTrue(Allocator.sameAllocation(expected, got), "port " + port + ": " + expected + " vs " + got);
            assertEquals(expected.predictedSlowdown(), got.predictedSlowdown(), "port " + port);
            assertEquals(expected.appWeights(), got.appWeights());
            assertEquals(got.appWeights(), expected.appWeights());
            assertEquals(expected.appWeights().hashCode(), got.appWeights().hashCode());
        }
        assertTrue(mostGroups > 16, "some port has more groups than the allocator searches without a map: "
                + mostGroups);
    }

    /** The pipeline as it was: records sorted here, groups found through an identity map. */
    private PortAllocation reference(Allocator allocator, int queues, List<AppAtPort> apps, LevelPlan plan) {
        List<AppAtPort> sorted = new ArrayList<>(apps);
        sorted.sort(Comparator.comparing(AppAtPort::appId));
        Map<SensitivityModel, Integer> groupOf = new IdentityHashMap<>();
        List<SensitivityModel> models = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        int[] counts = new int[sorted.size()];
        int[] groupOfApp = new int[sorted.size()];
        for (int i = 0; i < sorted.size(); i++) {
            AppAtPort a = sorted.get(i);
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
        mostGroups = Math.max(mostGroups, models.size());
        PortDemand demand = new PortDemand(PORT, models, java.util.Arrays.copyOf(counts, models.size()), sorted,
                groupOfApp);
        QueuePlan q = allocator.planPort(demand, queues, levels.stream().mapToInt(Integer::intValue).toArray(), plan);
        Map<String, Double> weights = new HashMap<>();
        int[] next = new int[models.size()];
        for (int i = 0; i < sorted.size(); i++) {
            int g = groupOfApp[i];
            weights.put(sorted.get(i).appId(), q.shares().weight(g, next[g]++));
        }
        return new PortAllocation(PORT, q.queueMap(), q.queueWeights(), weights, q.shares().objective());
    }

    @Test
    void theWeightMapIsAnOrdinaryImmutableMapInIdOrder() {
        SensitivityModel m = Workloads.hibench().get("lr");
        Allocator allocator = new Allocator(new MinSlowdownSolver(), 16, 0.9);
        LevelPlan plan = allocator.planLevels(Map.of("lr", m), 4);
        List<AppAtPort> apps = List.of(new AppAtPort("c", "lr", plan.levelOf("lr"), m, 1),
                new AppAtPort("a", "lr", plan.levelOf("lr"), m, 2), new AppAtPort("b", "lr", plan.levelOf("lr"), m, 1));
        Map<String, Double> w = allocator.allocatePort(PORT, 4, apps, plan).appWeights();
        assertEquals(List.of("a", "b", "c"), new ArrayList<>(w.keySet()));
        assertEquals(0.3, w.get("b"), 1e-12, "three applications of one model split C_Saba equally");
        assertTrue(w.containsKey("c"));
        assertFalse(w.containsKey("d"));
        assertNull(w.get("d"));
        assertNull(w.get(7));
        Map<String, Double> copy = new LinkedHashMap<>(w);
        assertEquals(copy, w);
        assertEquals(copy.hashCode(), w.hashCode());
        assertThrows(UnsupportedOperationException.class, () -> w.put("d", 0.1));
        assertThrows(UnsupportedOperationException.class, () -> w.remove("a"));
        assertThrows(UnsupportedOperationException.class, () -> w.entrySet().iterator().remove());
    }

    @Test
    void aSnapshotIsFilledInIdOrderOnly() {
        SensitivityModel m = Workloads.hibench().get("lr");
        PortApps.Builder b = new PortApps.Builder(1).add("app-1", "lr", 1, m, 0, 1).add("app-2", "lr", 1, m, 0, 3);
        assertThrows(IllegalArgumentException.class, () -> b.add("app-2", "lr", 1, m, 0, 1), "twice");
        assertThrows(IllegalArgumentException.class, () -> b.add("app-0", "lr", 1, m, 0, 1), "out of order");
        PortApps apps = b.build();
        assertEquals(List.of(new AppAtPort("app-1", "lr", 1, m, 1), new AppAtPort("app-2", "lr", 1, m, 3)),
                apps.asList());
        assertTrue(PortApps.empty().isEmpty());
        assertThrows(IllegalArgumentException.class,
                () -> new Allocator(new MinSlowdownSolver(), 16, 0.9).allocatePort(PORT, 4, PortApps.empty(),
                        LevelPlan.none()));
    }
}
