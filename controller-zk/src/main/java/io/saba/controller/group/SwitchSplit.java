package io.saba.controller.group;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which member should own each switch: rendezvous hashing with bounded loads. Each switch, in name order, goes to
 * the member that scores highest for it among those not yet full; a member is full at ⌈switches / members⌉ while
 * fewer than {@code switches mod members} members have reached that, and at ⌊switches / members⌋ after. So shares
 * differ by at most one switch (plain rendezvous hashing split 9 switches 1/6/2 among ctl-a/b/c), and, as with plain
 * rendezvous hashing, the result depends only on the sets of switches and members, so every member computes the
 * same split without talking to the others. The price of the bound: a join or a death can move a few more switches
 * than the one member's share (SwitchSplitTest measures it).
 */
final class SwitchSplit {
    private SwitchSplit() {
    }

    /** switch → the member meant to own it (empty when there is no member). */
    static SortedMap<String, String> targets(SortedSet<String> switches, Collection<String> members) {
        SortedMap<String, String> out = new TreeMap<>();
        List<String> ms = new ArrayList<>(new TreeSet<>(members));
        if (ms.isEmpty()) {
            return out;
        }
        int floor = switches.size() / ms.size();
        int atCeilingAllowed = switches.size() % ms.size();
        Map<String, Integer> load = new HashMap<>();
        int atCeiling = 0;
        for (String sw : switches) {
            String best = null;
            long bestScore = 0;
            for (String m : ms) {
                int l = load.getOrDefault(m, 0);
                boolean full = l >= floor + 1 || (l == floor && atCeiling >= atCeilingAllowed);
                if (full) {
                    continue;
                }
                long score = score(sw, m);
                if (best == null || Long.compareUnsigned(score, bestScore) > 0
                        || (score == bestScore && m.compareTo(best) < 0)) {
                    best = m;
                    bestScore = score;
                }
            }
            int l = load.merge(best, 1, Integer::sum);
            if (l == floor + 1) {
                atCeiling++;
            }
            out.put(sw, best);
        }
        return out;
    }

    /** FNV-1a over "switch \n member", then a final mix: stable across JVMs and versions. */
    static long score(String sw, String member) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (sw + '\n' + member).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
    }
}
