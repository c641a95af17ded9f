package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.topology.Topologies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A port under levels per application: two applications of one workload get a queue each where the port has room,
 * each queue weighted with its application's share, and one queue with both shares where it has not; the shares
 * are the ones the per-workload pipeline gives, bit for bit.
 */
class ApplicationLevelPortsTest {
    private static final SensitivityModel LR = SensitivityModel.of(5, -8, 4);
    private static final SensitivityModel SORT = SensitivityModel.of(1.5, -0.5);
    /** Concave where it matters: Eq. 2's optimum puts one of two applications high and the other at the floor. */
    private static final SensitivityModel CONCAVE = SensitivityModel.of(3, 0, -2);
    private static final PortId PORT = new PortId("s0", 1);

    private static Allocator allocator(LevelMode mode) {
        return new Allocator(new MinSlowdownDecision(new MinSlowdownSolver()),
                new LevelAssigner(LevelAssigner.ETHERNET_LEVELS), 0.9, mode);
    }

    /** lr-1, lr-2 and sort-1 on PORT, each at its level in {@code plan}. */
    private static List<AppAtPort> onPort(LevelPlan plan, SensitivityModel lr) {
        return List.of(new AppAtPort("lr-1", "lr", plan.levelOf("lr-1", "lr"), lr, 1),
                new AppAtPort("lr-2", "lr", plan.levelOf("lr-2", "lr"), lr, 1),
                new AppAtPort("sort-1", "sort", plan.levelOf("sort-1", "sort"), SORT, 1));
    }

    private static LevelPlan workloadPlan(SensitivityModel lr, int queues) {
        return allocator(LevelMode.WORKLOAD).planLevels(Map.of("lr", lr, "sort", SORT), queues);
    }

    /** The same port under the per-workload pipeline. */
    private static PortAllocation perWorkload(SensitivityModel lr, int queues) {
        LevelPlan plan = workloadPlan(lr, queues);
        return allocator(LevelMode.WORKLOAD).allocatePort(PORT, queues, onPort(plan, lr), plan);
    }

    @Test
    void aPortWithRoomGivesEachApplicationOfAWorkloadAQueueWithItsOwnShare() {
        Allocator a = allocator(LevelMode.APPLICATION);
        // planned for ports of 3 queues at least (2 for Saba), used on a port of 8
        LevelPlan plan = a.planLevels(Map.of("lr-1", LR, "lr-2", LR, "sort-1", SORT), 3);
        assertEquals(Map.of("sort-1", 1, "lr-1", 2, "lr-2", 3), plan.levelOfWorkload());
        PortAllocation p = a.allocatePort(PORT, 8, onPort(plan, LR), plan);
        PortAllocation workload = perWorkload(LR, 8);

        int q1 = p.queueOfLevel().get(2);
        int q2 = p.queueOfLevel().get(3);
        int qs = p.queueOfLevel().get(1);
        assertEquals(3, java.util.Set.of(q1, q2, qs).size(), "three applications, three queues: " + p.queueOfLevel());
        double[] w = p.queueWeights();
        assertEquals(workload.appWeights(), p.appWeights(), "each application's share is the per-workload one");
        assertEquals(p.appWeights().get("lr-1"), w[q1]);
        assertEquals(p.appWeights().get("lr-2"), w[q2]);
        assertEquals(w[q1], w[q2], "one workload, one share each");
        int lrQueue = workload.queueOfLevel().get(workloadPlan(LR, 8).levelOf("lr"));
        assertEquals(workload.queueWeights()[lrQueue], w[q1] + w[q2], "the workload's queue split in two");
        assertEquals(0.1, w[0], 1e-15);
    }

    @Test
    void aPortWithoutRoomPutsOneWorkloadsApplicationsInOneQueue() {
        Allocator a = allocator(LevelMode.APPLICATION);
        LevelPlan plan = a.planLevels(Map.of("lr-1", LR, "lr-2", LR, "sort-1", SORT), 3);
        PortAllocation p = a.allocatePort(PORT, 3, onPort(plan, LR), plan);
        assertEquals(p.queueOfLevel().get(2), p.queueOfLevel().get(3), "identical models merge first");
        assertNotEquals(p.queueOfLevel().get(1), p.queueOfLevel().get(2));
        PortAllocation workload = perWorkload(LR, 3);
        assertEquals(workload.appWeights(), p.appWeights());
        double[] w = p.queueWeights();
        assertEquals(p.appWeights().get("lr-1") + p.appWeights().get("lr-2"), w[p.queueOfLevel().get(2)]);
        assertEquals(p.appWeights().get("sort-1"), w[p.queueOfLevel().get(1)]);
        java.util.List<Double> perWorkloadQueues = new java.util.ArrayList<>();
        for (double x : workload.queueWeights()) {
            perWorkloadQueues.add(x);
        }
        java.util.List<Double> perApplicationQueues = new java.util.ArrayList<>();
        for (double x : w) {
            perApplicationQueues.add(x);
        }
        perWorkloadQueues.sort(null);
        perApplicationQueues.sort(null);
        assertEquals(perWorkloadQueues, perApplicationQueues, "the same queues as per workload");
    }

    /**
     * What Eq. 2 does with one model in two groups (two levels) instead of one group of two: a convex model gets the
     * same share in both groups, and the per-workload one to the solver's rounding; a concave one has an asymmetric
     * optimum (one application high, one at the floor), which two groups reach by the branch and bound's order and
     * one group by the applications' order. The pipeline pools one model's applications whatever their levels, so
     * each keeps the per-workload share, bit for bit.
     */
    @Test
    void oneModelInTwoGroupsAndThePooledPipeline() {
        MinSlowdownSolver solver = new MinSlowdownSolver();
        GroupSolution split = solver.solveGroups(List.of(LR, LR, SORT), new int[] {1, 1, 1}, 0.9);
        GroupSolution pooled = solver.solveGroups(List.of(LR, SORT), new int[] {2, 1}, 0.9);
        assertEquals(split.weight(0, 0), split.weight(1, 0), "two groups of one convex model: one share");
        assertEquals(pooled.weight(0, 0), split.weight(0, 0), 1e-12);
        assertEquals(pooled.weight(0, 1), pooled.weight(0, 0));

        GroupSolution concaveSplit = solver.solveGroups(List.of(CONCAVE, CONCAVE), new int[] {1, 1}, 0.9);
        GroupSolution concavePooled = solver.solveGroups(List.of(CONCAVE), new int[] {2}, 0.9);
        assertEquals(concavePooled.objective(), concaveSplit.objective(), 1e-8);
        assertNotEquals(concavePooled.weight(0, 0), concavePooled.weight(0, 1), "the optimum is asymmetric");

        Allocator a = allocator(LevelMode.APPLICATION);
        LevelPlan plan = a.planLevels(Map.of("lr-1", CONCAVE, "lr-2", CONCAVE, "sort-1", SORT), 8);
        assertNotEquals(plan.levelOf("lr-1"), plan.levelOf("lr-2"));
        PortAllocation p = a.allocatePort(PORT, 8, onPort(plan, CONCAVE), plan);
        assertEquals(perWorkload(CONCAVE, 8).appWeights(), p.appWeights(), "the per-workload shares, by id");
    }

    @Test
    void fromScratchThePipelinePlacesApplications() {
        Allocator a = allocator(LevelMode.APPLICATION);
        AllocationResult r = a.allocate(List.of(new Application("lr-1", "lr", LR), new Application("lr-2", "lr", LR),
                new Application("sort-1", "sort", SORT)), List.of(new Connection("lr-1", "h1", "h3"),
                new Connection("lr-2", "h2", "h3"), new Connection("sort-1", "h4", "h3")),
                Topologies.singleSwitch(4, 56, 8));
        assertEquals(Map.of("sort-1", 1, "lr-1", 2, "lr-2", 3), r.levelOfApp());
        PortAllocation toH3 = r.ports().get(new PortId("s0", 3));
        assertEquals(4, toH3.queueOfLevel().size(), "the default queue and one per application");
    }
}
