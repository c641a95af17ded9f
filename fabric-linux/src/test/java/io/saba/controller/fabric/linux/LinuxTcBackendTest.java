package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The backend's command sequences and failure handling, against a fake tc (no root needed). */
class LinuxTcBackendTest {
    private static final PortId PORT = new PortId("sw", 1);
    private static final LinuxPort DEV = new LinuxPort("saba-x-sw", "p1", 100_000_000L);

    private final FakeTc tc = new FakeTc();
    private final LinuxTcBackend backend = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)),
            DscpMap.classSelectors(), 1.0, tc);

    private static PortAllocation alloc(double... w) {
        Map<Integer, Integer> q = new TreeMap<>();
        for (int i = 0; i < w.length; i++) {
            q.put(i + 1, i);
        }
        return new PortAllocation(PORT, q, w, Map.of());
    }

    @Test
    void firstApplyBuildsTheTreeAndCloseRemovesIt() {
        ApplyResult r = backend.apply(List.of(alloc(0.6, 0.3, 0.1)));
        assertTrue(r.ok(), r.toString());
        assertEquals(Set.of(PORT), r.applied());
        assertEquals(new TreeSet<>(List.of("1:1", "1:10", "1:20", "1:21", "1:22")), tc.classes);
        // every Saba DSCP has a filter; levels 4-7, not on the port, go with the nearest level there (3)
        assertEquals(Map.of(9, "1:20", 17, "1:21", 25, "1:22", 33, "1:22", 41, "1:22", 49, "1:22", 57, "1:22"),
                tc.filters);
        assertEquals(tc.filters, tc.v6Filters, "IPv6 is classified like IPv4");
        assertTrue(tc.log.contains("tc -n saba-x-sw filter replace dev p1 parent 1: protocol ip prio 1 handle 800::9 "
                + "u32 match ip tos 0x20 0xfc flowid 1:20"), String.join("\n", tc.log));
        assertTrue(tc.log.contains("tc -n saba-x-sw filter replace dev p1 parent 1: protocol ipv6 prio 2 handle ::9 "
                + "u32 match ip6 priority 0x20 0xfc flowid 1:20"), String.join("\n", tc.log));
        backend.close();
        assertFalse(tc.root, "the backend created the root, so close removes it");
    }

    @Test
    void updatesChangeClassesInPlaceAndDropWhatIsGone() {
        backend.apply(List.of(alloc(0.6, 0.3, 0.1)));
        tc.log.clear();
        assertTrue(backend.apply(List.of(alloc(0.5, 0.5))).ok());
        List<String> changes = tc.changes();
        assertTrue(changes.stream().noneMatch(c -> c.contains("class add") || c.contains("qdisc replace dev p1 root")),
                "existing classes must be changed, not re-created: " + changes);
        assertTrue(changes.stream().anyMatch(c -> c.contains("class change dev p1 parent 1:1 classid 1:20 htb rate 50000000bit")));
        assertEquals(Map.of(9, "1:20", 17, "1:21", 25, "1:21", 33, "1:21", 41, "1:21", 49, "1:21", 57, "1:21"),
                tc.filters);
        assertEquals(tc.filters, tc.v6Filters);
        assertFalse(tc.classes.contains("1:22"));
        // Filters pointing at 1:22 are re-pointed before the class goes; the IPv6 ones by the handles the kernel
        // gave them, which the device was read for once, after the push that created them
        int repointed = indexOf(changes, "handle 800::19 u32 match ip tos 0x60 0xfc flowid 1:21");
        int repointed6 = indexOf(changes, "handle 801::19 u32 match ip6 priority 0x60 0xfc flowid 1:21");
        int classDel = indexOf(changes, "class del dev p1 classid 1:22");
        assertTrue(repointed >= 0 && repointed6 >= 0 && classDel > Math.max(repointed, repointed6),
                changes.toString());
        assertEquals(3, tc.log.stream().filter(c -> c.contains(" show ")).count(), tc.log.toString());
        tc.log.clear();
        assertTrue(backend.apply(List.of(alloc(0.4, 0.6))).ok());
        assertTrue(tc.log.stream().noneMatch(c -> c.contains(" show ")), "a known device is not read again");
    }

    @Test
    void sameConfigurationTwiceTouchesNothing() {
        backend.apply(List.of(alloc(0.6, 0.4)));
        tc.log.clear();
        assertTrue(backend.apply(List.of(alloc(0.6, 0.4))).ok());
        assertEquals(List.of(), tc.log);
    }

    @Test
    void aFailedUpdateIsReportedAndRolledBack() {
        backend.apply(List.of(alloc(0.6, 0.3, 0.1)));
        Map<Integer, String> filtersBefore = Map.copyOf(tc.filters);
        Map<Integer, String> v6FiltersBefore = Map.copyOf(tc.v6Filters);
        Set<String> classesBefore = Set.copyOf(tc.classes);
        tc.log.clear();
        // The new plan's filter for DSCP 16 fails, half-way through the update (in the batch and in the retry).
        tc.failing = c -> c.contains("handle 800::11") && c.contains("flowid 1:20");
        ApplyResult r = backend.apply(List.of(new PortAllocation(PORT, Map.of(1, 0, 2, 0, 3, 1),
                new double[] {0.9, 0.1}, Map.of())));
        assertFalse(r.ok());
        String why = r.failed().get(PORT);
        assertTrue(why.contains("tc -n saba-x-sw filter replace dev p1") && why.contains("handle 800::11")
                && why.contains("exited 1") && why.contains("injected failure"), why);
        assertTrue(why.contains("previous configuration restored"), why);
        assertEquals(filtersBefore, tc.filters);
        assertEquals(v6FiltersBefore, tc.v6Filters);
        assertEquals(classesBefore, tc.classes);
        // The rollback re-applied the old rates too.
        assertTrue(tc.log.stream().anyMatch(c -> c.contains("classid 1:20 htb rate 60000000bit")));
        assertEquals(0.6 * 100_000_000L, backend.installedPlan(PORT).orElseThrow().queues().get(0).rateBps(), 1);
    }

    @Test
    void invalidAllocationsAreRejectedBeforeAnyCommand() {
        ApplyResult r = backend.apply(List.of(alloc(0.7, 0.7)));
        assertFalse(r.ok());
        assertTrue(r.failed().get(PORT).contains("above C_Saba"));
        assertEquals(List.of(), tc.log);
        ApplyResult unknown = backend.apply(List.of(new PortAllocation(new PortId("sw", 9), Map.of(), new double[0],
                Map.of())));
        assertTrue(unknown.failed().get(new PortId("sw", 9)).contains("no Linux device"));
    }

    @Test
    void aPortTheTestbedShapedIsGivenBackAsThePlainLink() {
        PlainLink.install(tc, DEV);
        tc.log.clear();
        backend.apply(List.of(alloc(0.6, 0.4)));
        assertTrue(tc.log.stream().noneMatch(c -> c.contains("qdisc replace dev p1 root")), "root reused");
        backend.close();
        assertTrue(tc.root, "someone else's root stays");
        assertEquals(new TreeSet<>(List.of("1:1", "1:10")), tc.classes);
        assertTrue(tc.filters.isEmpty());
        assertTrue(tc.v6Filters.isEmpty() && tc.v6Table == null, "the IPv6 preference is gone too");
    }

    @Test
    void aFailedFirstApplyRemovesTheRootItCreated() {
        tc.failing = c -> c.contains("filter replace");
        ApplyResult r = backend.apply(List.of(alloc(1.0)));
        assertFalse(r.ok());
        assertFalse(tc.root);
        assertTrue(backend.managedPorts().isEmpty());
    }

    private static int indexOf(List<String> l, String part) {
        for (int i = 0; i < l.size(); i++) {
            if (l.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }
}
