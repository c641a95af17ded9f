package io.saba.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 item 3: a level handed out is on the wire (a socket's DSCP, a queue pair's SL, a Flink partition's
 * index), so a newcomer must not renumber the running workloads; and while every distinct model has a level of its
 * own, the stable labels give every port the same weights as clustering from scratch. Workloads nothing is known of
 * yet are placed apart, so a queue's counts are one workload's.
 */
class StableLevelsTest {
    private static final SensitivityModel LR = SensitivityModel.of(5, -8, 4);
    private static final SensitivityModel PR = SensitivityModel.of(3, -4, 2);
    private static final SensitivityModel SORT = SensitivityModel.of(1.5, -0.5);
    private static final SensitivityModel WC = SensitivityModel.of(1.2, -0.2);

    @Test
    void workloadsRegisteredOneByOneKeepTheirFirstLevel() {
        LevelAssigner assigner = new LevelAssigner(LevelAssigner.ETHERNET_LEVELS);
        Map<String, SensitivityModel> present = new TreeMap<>();
        LevelAssignment plan = LevelAssignment.empty();
        Map<String, Integer> first = new HashMap<>();
        for (Map.Entry<String, SensitivityModel> arrival : List.of(Map.entry("lr", LR), Map.entry("sort", SORT),
                Map.entry("wc", WC), Map.entry("pr", PR))) {
            present.put(arrival.getKey(), arrival.getValue());
            plan = assigner.assign(present, plan);
            first.putIfAbsent(arrival.getKey(), plan.levelOf(arrival.getKey()));
            for (String running : present.keySet()) {
                assertEquals(first.get(running), plan.levelOf(running), running + " was renumbered when "
                        + arrival.getKey() + " arrived: " + plan.levelOfApp());
            }
        }
        // clustering from scratch numbers by sensitivity, so each less sensitive newcomer would have moved lr
        assertNotEquals(first.get("lr"), assigner.assign(present).levelOf("lr"));
        assertEquals(4, new java.util.HashSet<>(plan.levelOfApp().values()).size(), "a level per distinct model");

        // one leaves, one comes: the freed level is reused, nobody else moves
        present.remove("sort");
        plan = assigner.assign(present, plan);
        present.put("svm", SensitivityModel.of(2, -1.5, 0.5));
        plan = assigner.assign(present, plan);
        assertEquals(first.get("sort"), plan.levelOf("svm"), "the lowest free level");
        for (String running : List.of("lr", "wc", "pr")) {
            assertEquals(first.get(running), plan.levelOf(running));
        }
    }

    @Test
    void anIdenticalModelSharesALevelAndAFullFabricJoinsTheNearestLevel() {
        LevelAssigner twoLevels = new LevelAssigner(3); // Saba levels 1 and 2
        Map<String, SensitivityModel> present = new TreeMap<>(Map.of("lr", LR, "wc", WC));
        LevelAssignment plan = twoLevels.assign(present);
        SensitivityModel nearLr = SensitivityModel.of(5, -8, 3.9);
        present.put("lr-again", LR);
        present.put("near-lr", nearLr);
        plan = twoLevels.assign(present, plan);
        assertEquals(plan.levelOf("lr"), plan.levelOf("lr-again"), "identical models share a level");
        assertEquals(plan.levelOf("lr"), plan.levelOf("near-lr"), "no free level: the nearest centroid's");
        assertNotEquals(plan.levelOf("lr"), plan.levelOf("wc"));
        assertEquals(SensitivityModel.mean(List.of(LR, LR, nearLr)), plan.levelCentroids().get(plan.levelOf("lr")),
                "the level's centroid follows its members");
    }

    @Test
    void whileEveryModelHasALevelThePortsWeightsAreThoseOfClusteringFromScratch() {
        Allocator allocator = new Allocator(new MinSlowdownSolver(), LevelAssigner.ETHERNET_LEVELS, 0.9);
        Map<String, SensitivityModel> present = new TreeMap<>();
        LevelPlan stable = LevelPlan.none();
        for (Map.Entry<String, SensitivityModel> arrival : List.of(Map.entry("lr", LR), Map.entry("sort", SORT),
                Map.entry("wc", WC), Map.entry("pr", PR))) {
            present.put(arrival.getKey(), arrival.getValue());
            stable = allocator.planLevels(present, stable, 3);
        }
        LevelPlan scratch = allocator.planLevels(present, 3);
        assertNotEquals(scratch.levelOfWorkload(), stable.levelOfWorkload(), "the labels differ");
        // a port with two queues for four levels: the hierarchy must merge the same levels either way
        PortId port = new PortId("s0", 1);
        PortAllocation a = allocator.allocatePort(port, 3, apps(present, stable), stable);
        PortAllocation b = allocator.allocatePort(port, 3, apps(present, scratch), scratch);
        assertEquals(b.appWeights(), a.appWeights());
        assertEquals(sortedWeights(b), sortedWeights(a));
        assertEquals(b.predictedSlowdown(), a.predictedSlowdown(), 1e-12);
        // which workloads share a queue is the same
        assertEquals(queueGroups(present, scratch, b), queueGroups(present, stable, a));
    }

    @Test
    void workloadsNothingIsKnownOfTakeLevelsOfTheirOwnWhileHalfTheLevelsAreFree() {
        LevelAssigner assigner = new LevelAssigner(LevelAssigner.ETHERNET_LEVELS); // 7 Saba levels, 3 for them
        SensitivityModel unknown = SensitivityModel.of(1.2, -0.2); // one model for all: the default
        Set<String> apart = Set.of("u1", "u2", "u3", "u4", "u5");
        Map<String, SensitivityModel> present = new TreeMap<>();
        LevelAssignment plan = LevelAssignment.empty();
        LevelAssignment together = LevelAssignment.empty();
        for (String u : List.of("u1", "u2", "u3", "u4")) {
            present.put(u, unknown);
            plan = assigner.assign(present, plan, apart);
            together = assigner.assign(present, together);
        }
        assertEquals(Map.of("u1", 1, "u2", 2, "u3", 3, "u4", 1), plan.levelOfApp(),
                "a level each for the first three; the fourth shares the identical model's");
        assertEquals(Set.of(1), Set.copyOf(together.levelOfApp().values()), "without apart one level, as before");
        present.put("lr", LR);
        plan = assigner.assign(present, plan, apart);
        assertEquals(4, plan.levelOf("lr"), "a profiled workload still finds a free level");
        assertEquals(3, assigner.maxApartLevels());

        // what is learnt of a running workload does not move it; once one is known, another unknown may take its place
        present.put("u2", PR);
        present.put("u5", unknown);
        plan = assigner.assign(present, plan, Set.of("u1", "u3", "u4", "u5"));
        assertEquals(2, plan.levelOf("u2"));
        assertEquals(5, plan.levelOf("u5"), "levels 1 and 3 hold only unknown workloads, level 2 no longer");
    }

    @Test
    void fromScratchTheKnownAreClusteredAndTheUnknownPlacedApartAroundThem() {
        LevelAssigner assigner = new LevelAssigner(LevelAssigner.ETHERNET_LEVELS);
        SensitivityModel unknown = SensitivityModel.of(1.2, -0.2);
        Map<String, SensitivityModel> present = Map.of("lr", LR, "sort", SORT, "u1", unknown, "u2", unknown);
        LevelAssignment a = assigner.assign(present, LevelAssignment.empty(), Set.of("u1", "u2"));
        LevelAssignment known = assigner.assign(Map.of("lr", LR, "sort", SORT));
        assertEquals(known.levelOf("lr"), a.levelOf("lr"));
        assertEquals(known.levelOf("sort"), a.levelOf("sort"));
        assertEquals(Set.of(3, 4), Set.of(a.levelOf("u1"), a.levelOf("u2")));
        assertEquals(assigner.assign(present), assigner.assign(present, LevelAssignment.empty(), Set.of()),
                "nobody apart: clustering from scratch");
    }

    @Test
    void twoUnknownWorkloadsApartGetEqualWeightsInQueuesOfTheirOwn() {
        Allocator allocator = new Allocator(new MinSlowdownSolver(), LevelAssigner.ETHERNET_LEVELS, 0.9);
        SensitivityModel unknown = SensitivityModel.of(1.2, -0.2);
        Map<String, SensitivityModel> present = new TreeMap<>(Map.of("a", unknown));
        LevelPlan plan = allocator.planLevels(present, LevelPlan.none(), Set.of("a", "b"), 4);
        present.put("b", unknown);
        plan = allocator.planLevels(present, plan, Set.of("a", "b"), 4);
        PortAllocation p = allocator.allocatePort(new PortId("s0", 1), 4, apps(present, plan), plan);
        int qa = p.queueOfLevel().get(plan.levelOf("a"));
        int qb = p.queueOfLevel().get(plan.levelOf("b"));
        assertNotEquals(qa, qb, p.toString());
        assertEquals(0.45, p.queueWeights()[qa], 1e-9);
        assertEquals(0.45, p.queueWeights()[qb], 1e-9);
    }

    private static List<AppAtPort> apps(Map<String, SensitivityModel> present, LevelPlan plan) {
        List<AppAtPort> out = new ArrayList<>();
        present.forEach((w, m) -> out.add(new AppAtPort("app-" + w, w, plan.levelOf(w), m, 1)));
        return out;
    }

    private static List<Double> sortedWeights(PortAllocation p) {
        return Arrays.stream(p.queueWeights()).sorted().boxed().toList();
    }

    /** The set of workload groups sharing a queue. */
    private static java.util.Set<java.util.Set<String>> queueGroups(Map<String, SensitivityModel> present,
                                                                   LevelPlan plan, PortAllocation p) {
        Map<Integer, java.util.Set<String>> byQueue = new TreeMap<>();
        present.keySet().forEach(w -> byQueue.computeIfAbsent(p.queueOfLevel().get(plan.levelOf(w)),
                q -> new java.util.TreeSet<>()).add(w));
        return new java.util.HashSet<>(byQueue.values());
    }
}
