package io.saba.core.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.testing.Workloads;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class LevelHierarchyTest {

    /** A centroid that differs from others only in c0, so distances are plain differences. */
    private static SensitivityModel at(double c0) {
        return SensitivityModel.of(c0);
    }

    private static List<Set<Integer>> sets(List<SortedSet<Integer>> clusters) {
        return clusters.stream().map(s -> (Set<Integer>) new TreeSet<>(s)).toList();
    }

    // PLs at 0, 1, 2.6, 10: d(1,2)=1 merges first (midpoint 0.5); then d({1,2},3)=2.1 beats d(3,4)=7.4.
    private static final Map<Integer, SensitivityModel> FOUR = Map.of(1, at(0), 2, at(1), 3, at(2.6), 4, at(10));

    @Test
    void fourPointsMergeClosestFirst() {
        LevelHierarchy h = LevelHierarchy.build(FOUR, 1);
        assertEquals(4, h.depth());
        assertEquals(List.of(Set.of(1), Set.of(2), Set.of(3), Set.of(4)), sets(h.clustersAt(1)));
        assertEquals(List.of(Set.of(1, 2), Set.of(3), Set.of(4)), sets(h.clustersAt(2)));
        assertEquals(List.of(Set.of(1, 2, 3), Set.of(4)), sets(h.clustersAt(3)));
        assertEquals(List.of(Set.of(1, 2, 3, 4)), sets(h.clustersAt(4)));
    }

    @Test
    void stopsAtTheMinimumQueueCount() {
        LevelHierarchy h = LevelHierarchy.build(FOUR, 2);
        assertEquals(3, h.depth());
        assertEquals(2, h.clustersAt(3).size());
        assertEquals(1, LevelHierarchy.build(FOUR, 4).depth(), "no merging needed");
        assertEquals(1, LevelHierarchy.build(FOUR, 8).depth(), "fewer PLs than queues");
    }

    @Test
    void mergedCentroidIsTheMidpointNotTheMean() {
        // PLs at 0, 4, 6, 7, 10.8. {3,4} merge (d=1) at 6.5; {2,{3,4}} (d=2.5) at midpoint 5.25 (the mean would be
        // 5.67). Then d(1, {2,3,4}) = 5.25 < d({2,3,4}, 5) = 5.55, so PL 1 joins next; with the mean PL 5 would.
        Map<Integer, SensitivityModel> five = Map.of(1, at(0), 2, at(4), 3, at(6), 4, at(7), 5, at(10.8));
        LevelHierarchy h = LevelHierarchy.build(five, 1);
        assertEquals(List.of(Set.of(1), Set.of(2), Set.of(3, 4), Set.of(5)), sets(h.clustersAt(2)));
        assertEquals(List.of(Set.of(1), Set.of(2, 3, 4), Set.of(5)), sets(h.clustersAt(3)));
        assertEquals(List.of(Set.of(1, 2, 3, 4), Set.of(5)), sets(h.clustersAt(4)));
    }

    @Test
    void tiesMergeTheLowestLevelsFirst() {
        Map<Integer, SensitivityModel> evenlySpaced = Map.of(1, at(0), 2, at(1), 3, at(2), 4, at(3));
        LevelHierarchy h = LevelHierarchy.build(evenlySpaced, 1);
        assertEquals(List.of(Set.of(1, 2), Set.of(3), Set.of(4)), sets(h.clustersAt(2)));
        // {1,2} sits at 0.5: d to 3 is 1.5, d(3,4) = 1
        assertEquals(List.of(Set.of(1, 2), Set.of(3, 4)), sets(h.clustersAt(3)));
    }

    @Test
    void queueMapTakesTheFirstHierarchyLevelThatFits() {
        LevelHierarchy h = LevelHierarchy.build(FOUR, 1);
        assertEquals(Map.of(1, 0, 2, 1, 3, 2, 4, 3), h.queueMap(Set.of(1, 2, 3, 4), 4));
        assertEquals(Map.of(1, 0, 2, 0, 3, 1, 4, 2), h.queueMap(Set.of(1, 2, 3, 4), 3));
        assertEquals(Map.of(1, 0, 2, 0, 3, 0, 4, 1), h.queueMap(Set.of(1, 2, 3, 4), 2));
        assertEquals(Map.of(1, 0, 2, 0, 3, 0, 4, 0), h.queueMap(Set.of(1, 2, 3, 4), 1));
        // only the PLs present count: {1,4} fit 2 queues at level 1 already
        assertEquals(Map.of(1, 0, 4, 1), h.queueMap(Set.of(1, 4), 2));
        // {1,2,3} need level 2, where {1,2} share
        assertEquals(Map.of(1, 0, 2, 0, 3, 1), h.queueMap(Set.of(1, 2, 3), 2));
        // {2,3,4} with 2 queues: level 2 has {1,2},{3},{4} → 3 clusters present; level 3 {1,2,3},{4} → 2
        assertEquals(Map.of(2, 0, 3, 0, 4, 1), h.queueMap(Set.of(2, 3, 4), 2));
        assertEquals(Map.of(), h.queueMap(Set.of(), 2));
    }

    @Test
    void queueMapRefusesWhatCannotFit() {
        LevelHierarchy h = LevelHierarchy.build(FOUR, 3);
        assertThrows(IllegalArgumentException.class, () -> h.queueMap(Set.of(1, 2, 3, 4), 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.queueMap(Set.of(9), 4));
        assertTrue(e.getMessage().contains("9"), e.getMessage());
    }

    @Test
    void thesisWorkloadsClusterIntoTheThesisGroupsAtThreeQueues() {
        // each workload its own PL (10 < 15 application levels), then the hierarchy down to 3 queues
        LevelAssignment levels = new LevelAssigner(16).assign(Workloads.hibench());
        assertEquals(10, levels.levelCentroids().size());
        LevelHierarchy h = LevelHierarchy.build(levels.levelCentroids(), 3);
        assertEquals(8, h.depth());
        Map<Integer, String> workloadOfLevel = new TreeMap<>();
        levels.levelOfApp().forEach((w, l) -> workloadOfLevel.put(l, w));
        Set<Set<String>> groups = new HashSet<>();
        for (SortedSet<Integer> cluster : h.clustersAt(h.depth())) {
            groups.add(cluster.stream().map(workloadOfLevel::get).collect(Collectors.toSet()));
        }
        assertEquals(Set.of(Set.of("ts", "wc", "pr", "sql"), Set.of("svm", "ni", "nw"), Set.of("lr", "rf", "gbt")), groups);
        // and the queue map sends the sensitive group to the highest queue
        Map<Integer, Integer> q = h.queueMap(levels.levelCentroids().keySet(), 3);
        assertEquals(2, q.get(levels.levelOf("lr")));
        assertEquals(0, q.get(levels.levelOf("ts")));
    }

    @Test
    void queueArrayFollowsThePapersRuleOnRandomHierarchies() {
        // the rule written out on the clusters' sets, against the bit-mask implementation the controller uses
        Random random = new Random(7);
        for (int trial = 0; trial < 300; trial++) {
            Map<Integer, SensitivityModel> centroids = new TreeMap<>();
            int count = 1 + random.nextInt(12);
            while (centroids.size() < count) {
                centroids.put(1 + random.nextInt(LevelHierarchy.LEVEL_LIMIT - 1), at(random.nextDouble() * 20));
            }
            LevelHierarchy h = LevelHierarchy.build(centroids, 1 + random.nextInt(3));
            List<Integer> known = List.copyOf(centroids.keySet());
            Set<Integer> present = new TreeSet<>();
            for (int pl : known) {
                if (random.nextBoolean()) {
                    present.add(pl);
                }
            }
            int queues = 1 + random.nextInt(5);
            Map<Integer, Integer> expected = rule(h, present, queues);
            long mask = 0;
            for (int pl : present) {
                mask |= 1L << pl;
            }
            if (expected == null) {
                long m = mask;
                assertThrows(IllegalArgumentException.class, () -> h.queueArray(m, queues));
                continue;
            }
            int[] array = new int[present.isEmpty() ? 0 : ((TreeSet<Integer>) present).last() + 1];
            java.util.Arrays.fill(array, -1);
            expected.forEach((pl, q) -> array[pl] = q);
            assertArrayEquals(array, h.queueArray(mask, queues), h + " present " + present + " queues " + queues);
            assertEquals(expected, h.queueMap(present, queues));
        }
    }

    /** The first hierarchy level whose clusters holding present PLs fit, numbered by their smallest present PL. */
    private static Map<Integer, Integer> rule(LevelHierarchy h, Set<Integer> present, int queues) {
        for (int level = 1; level <= h.depth(); level++) {
            List<SortedSet<Integer>> used = h.clustersAt(level).stream()
                    .filter(c -> c.stream().anyMatch(present::contains)).collect(Collectors.toList());
            if (used.size() <= queues) {
                used.sort((x, y) -> Integer.compare(x.stream().filter(present::contains).findFirst().orElseThrow(),
                        y.stream().filter(present::contains).findFirst().orElseThrow()));
                Map<Integer, Integer> out = new TreeMap<>();
                for (int q = 0; q < used.size(); q++) {
                    for (int pl : used.get(q)) {
                        if (present.contains(pl)) {
                            out.put(pl, q);
                        }
                    }
                }
                return out;
            }
        }
        return null;
    }

    @Test
    void levelsOutsideTheMaskAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LevelHierarchy.build(Map.of(57, at(0)), 1));
        assertTrue(e.getMessage().contains("57"), e.getMessage());
    }
}
