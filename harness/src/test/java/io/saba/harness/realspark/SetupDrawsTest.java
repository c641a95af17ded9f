package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SetupDrawsTest {
    private static final List<String> TEN = List.of("lr", "rf", "gbt", "svm", "pagerank", "nweight", "sql",
            "wordcount", "sort", "nutchindexing");

    @Test
    void setupsFollowTheTestbedRules() {
        SetupDraws d = new SetupDraws(1, TEN, 5);
        Set<Integer> counts = new HashSet<>();
        Set<Double> factors = new HashSet<>();
        Set<Integer> instances = new HashSet<>();
        Set<String> workloads = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            List<SetupJob> jobs = d.setup(i);
            counts.add(jobs.size());
            for (int k = 0; k < jobs.size(); k++) {
                SetupJob j = jobs.get(k);
                assertEquals("s" + i + "-j" + k, j.id());
                assertTrue(TEN.contains(j.workload()), j.workload());
                factors.add(j.factor());
                instances.add(j.instances());
                assertTrue(j.hosts().stream().allMatch(h -> h >= 2 && h <= 5), "executors on h2..h5: " + j);
                assertEquals(j.instances(), new HashSet<>(j.hosts()).size(), "one instance per host");
                workloads.add(j.workload());
            }
        }
        assertEquals(Set.of(3, 4), counts, "3 or 4 jobs");
        assertEquals(Set.of(0.5, 1.0, 2.0), factors);
        assertEquals(Set.of(1, 2, 3, 4), instances, "1 to hosts - 1 instances");
        assertEquals(new HashSet<>(TEN), workloads, "with replacement from all ten");
    }

    @Test
    void aSetupDependsOnlyOnTheSeedAndItsIndex() {
        SetupDraws a = new SetupDraws(7, TEN, 5);
        List<String> reversed = new ArrayList<>(TEN);
        Collections.reverse(reversed);
        SetupDraws b = new SetupDraws(7, reversed, 5);
        assertEquals(a.setup(11), b.setup(11), "same seed and index: same jobs, whatever the workloads' order");
        for (int i = 0; i < 11; i++) {
            b.setup(i);
        }
        assertEquals(a.setup(11), b.setup(11), "setups drawn before do not matter (resume)");
        assertNotEquals(a.setup(11), new SetupDraws(8, TEN, 5).setup(11));
        assertNotEquals(a.setup(11), a.setup(12));
    }

    @Test
    void fewerThanThreeHostsIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new SetupDraws(1, TEN, 2));
        assertTrue(e.getMessage().contains("at least 3"), e.getMessage());
    }
}
