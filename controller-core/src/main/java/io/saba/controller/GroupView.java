package io.saba.controller;

import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A group member's view of the group, for status pages and metrics: who it is, who leads, who is in the group,
 * which switches it programs now, and the split every member computes (switch → the member that should own it). When
 * the topology manages hosts' NICs ({@code host-queues}), hosts are split among the members the same way, apart from
 * the switches (each split is balanced on its own), and a host's agent is served by the member that programs it.
 *
 * @param member      this member's id
 * @param leader      the id of the member that leads now ("" while none is known, e.g. cut off from the store)
 * @param members     the live members' ids
 * @param programming the switches this member programs now
 * @param targets     switch → the member meant to own it, for the members listed
 * @param sessionTimeoutMillis the session timeout the store granted this member: how long its switches wait for
 *                    another member if it crashes (plus up to one of the store's ticks)
 * @param hostsProgramming the hosts whose NICs this member programs now (empty unless hosts' NICs are managed)
 * @param hostTargets host → the member meant to own it (empty unless hosts' NICs are managed)
 */
public record GroupView(String member, String leader, SortedSet<String> members, SortedSet<String> programming,
                        SortedMap<String, String> targets, long sessionTimeoutMillis,
                        SortedSet<String> hostsProgramming, SortedMap<String, String> hostTargets) {
    public GroupView {
        members = new TreeSet<>(members);
        programming = new TreeSet<>(programming);
        targets = new TreeMap<>(targets);
        hostsProgramming = new TreeSet<>(hostsProgramming);
        hostTargets = new TreeMap<>(hostTargets);
    }

    /** A group that splits switches only. */
    public GroupView(String member, String leader, SortedSet<String> members, SortedSet<String> programming,
                     SortedMap<String, String> targets, long sessionTimeoutMillis) {
        this(member, leader, members, programming, targets, sessionTimeoutMillis, new TreeSet<>(), new TreeMap<>());
    }

    public boolean leads() {
        return member.equals(leader);
    }

    /** Switches meant for each member (members with none included). */
    public SortedMap<String, Integer> shares() {
        SortedMap<String, Integer> out = new TreeMap<>();
        members.forEach(m -> out.put(m, 0));
        targets.values().forEach(m -> out.merge(m, 1, Integer::sum));
        return out;
    }

    /**
     * The largest share over the fair one (switches / members): 1.0 is an even split; 0 with no member or switch.
     */
    public double imbalance() {
        SortedMap<String, Integer> shares = shares();
        if (shares.isEmpty() || targets.isEmpty()) {
            return 0;
        }
        int most = shares.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return most / ((double) targets.size() / shares.size());
    }
}
