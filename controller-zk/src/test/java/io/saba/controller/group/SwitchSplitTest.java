package io.saba.controller.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.topology.Topologies;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Item 15 of issue #23: the split of switches among members is even, the same everywhere, and moves little. */
class SwitchSplitTest {
    /** The case: 9 switches (6 leaves, 3 spines), members ctl-a/b/c. */
    private static final SortedSet<String> NINE = new TreeSet<>(List.of("lf1", "lf2", "lf3", "lf4", "lf5", "lf6",
            "sp1", "sp2", "sp3"));

    @Test
    void sharesDifferByAtMostOneSwitch() {
        List<SortedSet<String>> fabrics = List.of(NINE, Topologies.fatTree(4, 10, 8).switches(),
                Topologies.fatTree(8, 10, 8).switches(), Topologies.spineLeaf().switches());
        for (SortedSet<String> switches : fabrics) {
            for (int n = 1; n <= 7; n++) {
                List<String> members = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    members.add("ctl-" + (char) ('a' + i));
                }
                SortedMap<String, String> split = SwitchSplit.targets(switches, members);
                assertEquals(switches, split.keySet());
                Map<String, Integer> shares = shares(split, members);
                int most = shares.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
                int fewest = shares.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
                assertTrue(most - fewest <= 1, switches.size() + " switches, members " + members + ": " + shares
                        + " (plain rendezvous hashing: " + shares(rendezvous(switches, members), members) + ")");
            }
        }
    }

    @Test
    void everyMemberComputesTheSameSplitWhateverTheOrderItListsMembersIn() {
        SortedSet<String> switches = Topologies.fatTree(4, 10, 8).switches();
        assertEquals(SwitchSplit.targets(switches, List.of("m0", "m1", "m2")),
                SwitchSplit.targets(switches, List.of("m2", "m0", "m1")));
    }

    /**
     * Bounded loads move more than plain rendezvous hashing when a member joins (or, the same switches the other
     * way, dies); measured here on the k=8 fat tree (80 switches) and kept within twice the least that must move.
     */
    @Test
    void aJoinOrADeathMovesFewSwitches() {
        SortedSet<String> switches = Topologies.fatTree(8, 10, 8).switches();
        for (int n = 2; n <= 6; n++) {
            List<String> before = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                before.add("m" + i);
            }
            List<String> after = new ArrayList<>(before);
            after.add("m" + n);
            int moved = moved(SwitchSplit.targets(switches, before), SwitchSplit.targets(switches, after));
            int least = switches.size() / (n + 1);
            System.out.printf("join: %d -> %d members, %d of %d switches move (at least %d must)%n", n, n + 1, moved,
                    switches.size(), least);
            assertTrue(moved <= 2 * (least + 1), "a join moved " + moved + " switches; " + least + " must move");
        }
    }

    private static int moved(Map<String, String> a, Map<String, String> b) {
        int n = 0;
        for (Map.Entry<String, String> e : a.entrySet()) {
            if (!e.getValue().equals(b.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }

    private static Map<String, Integer> shares(Map<String, String> split, Collection<String> members) {
        Map<String, Integer> out = new TreeMap<>();
        members.forEach(m -> out.put(m, 0));
        split.values().forEach(m -> out.merge(m, 1, Integer::sum));
        return out;
    }

    /** Plain rendezvous hashing (the split before bounded loads), for the message only. */
    private static Map<String, String> rendezvous(SortedSet<String> switches, List<String> members) {
        Map<String, String> out = new TreeMap<>();
        for (String sw : switches) {
            String best = null;
            for (String m : members) {
                if (best == null || Long.compareUnsigned(SwitchSplit.score(sw, m), SwitchSplit.score(sw, best)) > 0) {
                    best = m;
                }
            }
            out.put(sw, best);
        }
        return out;
    }
}
