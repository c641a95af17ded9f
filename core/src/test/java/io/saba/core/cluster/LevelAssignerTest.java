package io.saba.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.ModelFitter;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import io.saba.core.testing.Workloads;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LevelAssignerTest {

    /** 60 applications drawn from 25 random models (so some share a model), ids app00..app59. */
    private static Map<String, SensitivityModel> randomApps(long seed) {
        Random r = new Random(seed);
        List<SensitivityModel> models = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            models.add(Workloads.model(r.nextDouble() * 2, r.nextDouble() * 2, r.nextDouble()));
        }
        Map<String, SensitivityModel> apps = new TreeMap<>();
        for (int i = 0; i < 60; i++) {
            apps.put(String.format("app%02d", i), models.get(r.nextInt(models.size())));
        }
        return apps;
    }

    @Test
    void sameInputInAnyOrderGivesTheSameLevels() {
        Map<String, SensitivityModel> apps = randomApps(7);
        LevelAssignment first = new LevelAssigner(16).assign(apps);
        List<String> ids = new ArrayList<>(apps.keySet());
        for (int trial = 0; trial < 5; trial++) {
            Collections.shuffle(ids, new Random(trial));
            Map<String, SensitivityModel> shuffled = new LinkedHashMap<>();
            ids.forEach(id -> shuffled.put(id, apps.get(id)));
            LevelAssignment again = new LevelAssigner(16).assign(shuffled);
            assertEquals(first, again, "order of input changed the assignment");
        }
    }

    @Test
    void moreDistinctModelsThanLevelsUsesEveryLevelAboveZeroAtMostOnce() {
        Map<String, SensitivityModel> apps = randomApps(11);
        LevelAssignment a = new LevelAssigner(8).assign(apps);
        assertEquals(apps.keySet(), a.levelOfApp().keySet());
        Set<Integer> used = new HashSet<>(a.levelOfApp().values());
        assertEquals(7, used.size(), "25 distinct models should fill all 7 application levels");
        assertTrue(used.stream().allMatch(l -> l >= 1 && l <= 7), "levels " + used);
        assertEquals(used, a.levelCentroids().keySet());
    }

    @Test
    void identicalModelsShareALevel() {
        Map<String, SensitivityModel> apps = randomApps(3);
        LevelAssignment a = new LevelAssigner(4).assign(apps);
        for (String x : apps.keySet()) {
            for (String y : apps.keySet()) {
                if (apps.get(x).equals(apps.get(y))) {
                    assertEquals(a.levelOf(x), a.levelOf(y), x + " and " + y + " have the same model");
                }
            }
        }
    }

    @Test
    void fewerDistinctModelsThanLevelsGivesEachItsOwnLevelRankedBySensitivity() {
        SensitivityModel sort = Workloads.hibench().get("ts");
        SensitivityModel svm = Workloads.hibench().get("svm");
        SensitivityModel lr = Workloads.hibench().get("lr");
        Map<String, SensitivityModel> apps = Map.of("a", lr, "b", sort, "c", svm, "d", lr, "e", sort);
        LevelAssignment a = new LevelAssigner(16).assign(apps);
        assertEquals(Map.of("a", 3, "b", 1, "c", 2, "d", 3, "e", 1), a.levelOfApp());
        assertEquals(sort, a.levelCentroids().get(1), "a level of one model has that model as its centroid");
        assertEquals(svm, a.levelCentroids().get(2));
        assertEquals(lr, a.levelCentroids().get(3));
        assertEquals(0, a.levelOf("unknown"), "unknown applications are in the default level");
    }

    @Test
    void centroidIsTheMeanOfItsApplications() {
        SensitivityModel x = SensitivityModel.of(1, -1);
        SensitivityModel y = SensitivityModel.of(1.2, -1.4, 0.2);
        SensitivityModel far = SensitivityModel.of(9, -20, 12, -1);
        // two levels for apps: x, x, y must share one (they are close), far gets the other
        LevelAssignment a = new LevelAssigner(3).assign(Map.of("x1", x, "x2", x, "y", y, "far", far));
        assertEquals(a.levelOf("x1"), a.levelOf("y"));
        assertNotEquals(a.levelOf("x1"), a.levelOf("far"));
        assertEquals(2, a.levelOf("far"), "the more sensitive group gets the higher level");
        assertArrayEquals(new double[] {(1 + 1 + 1.2) / 3, (-1 - 1 - 1.4) / 3, 0.2 / 3},
                a.levelCentroids().get(1).coefficients(), 1e-12);
    }

    @Test
    void thesisWorkloadsFallIntoTheThesisGroupsWithThreeLevels() {
        LevelAssignment a = new LevelAssigner(4).assign(Workloads.hibench());
        assertEquals(Map.of("ts", 1, "wc", 1, "pr", 1, "sql", 1, "svm", 2, "ni", 2, "nw", 2, "lr", 3, "rf", 3, "gbt", 3),
                a.levelOfApp());
    }

    /**
     * Models of different families are grouped by what they predict, not by their parameters: an a + c/b model and
     * the paper's cubic fitted to its values share a level, although by coefficients the a + c/b model (0.5, 0, 0, 0
     * and a 1/b term no polynomial has) sits next to the insensitive models and the cubic (12, −58, 96, −49) far
     * from all. The centroid predicts the mean of its members.
     */
    @Test
    void modelsOfDifferentFamiliesAreGroupedByTheirCurves() {
        SensitivityModel inverse = SensitivityModel.inverse(0.5, 0.5);
        List<Sample> values = new ArrayList<>();
        for (double b : LevelAssigner.FEATURE_SHARES) {
            values.add(new Sample(100 * b, inverse.slowdown(b)));
        }
        SensitivityModel cubicLikeIt = ModelFitter.fit(values, 3).model();
        SensitivityModel insensitive = SensitivityModel.of(1.05, -0.05);
        SensitivityModel alsoInsensitive = SensitivityModel.inverse(0.99, 0.003);
        LevelAssignment a = new LevelAssigner(3).assign(Map.of("inv", inverse, "cubic", cubicLikeIt,
                "flat", insensitive, "flat2", alsoInsensitive));
        assertEquals(a.levelOf("inv"), a.levelOf("cubic"));
        assertEquals(a.levelOf("flat"), a.levelOf("flat2"));
        assertEquals(2, a.levelOf("inv"));
        SensitivityModel centroid = a.levelCentroids().get(2);
        for (double b : LevelAssigner.FEATURE_SHARES) {
            assertEquals((inverse.slowdown(b) + cubicLikeIt.slowdown(b)) / 2, centroid.slowdown(b), 1e-9);
        }
    }

    @Test
    void emptyInputAndTooFewLevels() {
        assertEquals(LevelAssignment.empty(), new LevelAssigner(16).assign(Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new LevelAssigner(1));
        new LevelAssigner(LevelHierarchy.LEVEL_LIMIT);
        assertThrows(IllegalArgumentException.class, () -> new LevelAssigner(LevelHierarchy.LEVEL_LIMIT + 1));
    }
}
