package io.saba.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.saba.core.model.SensitivityModel;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Levels per application ({@link LevelAssigner#assignApplications}), every case worked out by hand on Ethernet's 8
 * levels (7 for applications): one workload's applications take levels of their own while levels are free, share
 * one (the least crowded of their workload's) once they run out, a new workload then joins the nearest centroid, and
 * running applications never move.
 */
class ApplicationLevelsTest {
    // slowdown at 25 %: LR 3.25, SORT 1.375, WC 1.15, PR 2.125
    private static final SensitivityModel LR = SensitivityModel.of(5, -8, 4);
    private static final SensitivityModel SORT = SensitivityModel.of(1.5, -0.5);
    private static final SensitivityModel WC = SensitivityModel.of(1.2, -0.2);
    private static final SensitivityModel PR = SensitivityModel.of(3, -4, 2);

    private final LevelAssigner assigner = new LevelAssigner(LevelAssigner.ETHERNET_LEVELS);

    @Test
    void fromScratchALevelPerModelByItsSensitivityThenTheFreeLevelsToTheMostCrowdedModel() {
        LevelAssignment a = assigner.assignApplications(Map.of("lr-1", LR, "lr-2", LR, "lr-3", LR, "sort-1", SORT),
                LevelAssignment.empty());
        // sort is the less sensitive at 25 %: level 1, lr level 2; lr has 3 applications on 1 level, so it takes
        // levels 3 and 4; then every model has a level per application and levels 5-7 stay free
        assertEquals(Map.of("sort-1", 1, "lr-1", 2, "lr-2", 3, "lr-3", 4), a.levelOfApp());
        assertEquals(List.of(1, 2, 3, 4), List.copyOf(a.levelCentroids().keySet()));
        assertSame(LR, a.levelCentroids().get(3), "a level of one workload has its model as centroid");
        assertSame(SORT, a.levelCentroids().get(1));
    }

    @Test
    void fromScratchTheFreeLevelsAreSharedByCrowding() {
        Map<String, SensitivityModel> apps = new TreeMap<>();
        for (int i = 1; i <= 6; i++) {
            apps.put("lr-" + i, LR);
        }
        for (int i = 1; i <= 3; i++) {
            apps.put("sort-" + i, SORT);
        }
        LevelAssignment a = assigner.assignApplications(apps, LevelAssignment.empty());
        // sort 1, lr 2; then each free level to the most applications per level held:
        // 3: lr 6/1 > sort 3/1; 4: lr 6/2 = sort 3/1, lr wins the tie (higher first level, more sensitive);
        // 5: sort 3/1 > lr 6/3; 6: lr 6/3 > sort 3/2; 7: lr 6/4 = sort 3/2, lr again.
        // lr holds 2, 3, 4, 6, 7 and sort 1, 5; each workload's applications are dealt over its levels in id order.
        Map<String, Integer> expected = new TreeMap<>();
        int[] lrLevels = {2, 3, 4, 6, 7};
        for (int i = 1; i <= 6; i++) {
            expected.put("lr-" + i, lrLevels[(i - 1) % lrLevels.length]);
        }
        expected.put("sort-1", 1);
        expected.put("sort-2", 5);
        expected.put("sort-3", 1);
        assertEquals(expected, a.levelOfApp());
    }

    @Test
    void registeredOneByOneEachTakesAFreeLevelThenItsWorkloadsLeastCrowdedAndNobodyMoves() {
        Map<String, SensitivityModel> present = new TreeMap<>();
        LevelAssignment plan = LevelAssignment.empty();
        Map<String, Integer> told = new TreeMap<>();
        List<Map.Entry<String, SensitivityModel>> arrivals = List.of(Map.entry("a-lr", LR), Map.entry("b-lr", LR),
                Map.entry("c-sort", SORT), Map.entry("d-lr", LR), Map.entry("e-lr", LR), Map.entry("f-lr", LR),
                Map.entry("g-lr", LR), // levels 1..7 taken in arrival order
                Map.entry("h-lr", LR), // lr's levels 1, 2, 4, 5, 6, 7 hold one each: the lowest, 1
                Map.entry("i-lr", LR), // now 2
                Map.entry("j-sort", SORT), // sort's level, 3
                Map.entry("k-wc", WC)); // no identical model, no free level: the nearest centroid, sort's 3
        int[] expected = {1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 3};
        for (int i = 0; i < arrivals.size(); i++) {
            Map.Entry<String, SensitivityModel> arrival = arrivals.get(i);
            present.put(arrival.getKey(), arrival.getValue());
            plan = assigner.assignApplications(present, plan);
            assertEquals(expected[i], plan.levelOf(arrival.getKey()), arrival.getKey() + " in " + plan.levelOfApp());
            told.put(arrival.getKey(), expected[i]);
            assertEquals(told, plan.levelOfApp(), "running applications keep their levels");
        }
        assertEquals(SensitivityModel.mean(List.of(WC, SORT)), plan.levelCentroids().get(3),
                "a level's centroid is the mean of its distinct models");
        assertSame(LR, plan.levelCentroids().get(1), "two lr applications: lr's model itself");

        // d-lr leaves: its level is free again, and the next newcomer takes it whatever its workload
        present.remove("d-lr");
        told.remove("d-lr");
        plan = assigner.assignApplications(present, plan);
        assertEquals(told, plan.levelOfApp());
        present.put("l-pr", PR);
        plan = assigner.assignApplications(present, plan);
        assertEquals(4, plan.levelOf("l-pr"));
    }

    @Test
    void aNewWorkloadGoesBeforeMoreApplicationsOfAKnownOne() {
        Map<String, Integer> running = new TreeMap<>();
        Map<String, SensitivityModel> present = new TreeMap<>();
        for (int level = 1; level <= 6; level++) {
            running.put("lr-" + level, level);
            present.put("lr-" + level, LR);
        }
        present.put("a-lr", LR); // sorts first by id
        present.put("b-pr", PR);
        LevelAssignment a = assigner.assignApplications(present, new LevelAssignment(running, Map.of()));
        assertEquals(7, a.levelOf("b-pr"), "the one free level goes to the workload that has none");
        assertEquals(1, a.levelOf("a-lr"), "lr's least crowded level, the lowest of those");
    }
}
