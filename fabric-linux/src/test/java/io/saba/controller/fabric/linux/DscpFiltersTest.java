package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.linux.DscpFilters.Present;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The filter lines, written out by hand: DSCP 8 (CS1) is TOS / traffic class 0x20 and node 9, DSCP 16 (CS2) is 0x40
 * and node 0x11, DSCP 24 (CS3) is 0x60 and node 0x19.
 */
class DscpFiltersTest {
    private static final String V4 = "filter replace dev p1 parent 1: protocol ip prio 1 ";
    private static final String V6 = "filter replace dev p1 parent 1: protocol ipv6 prio 2 ";
    private static final String V6_DROP = "filter del dev p1 parent 1: protocol ipv6 prio 2";
    /** Both families of DSCPs 8, 16 and 24, the IPv6 ones in root table 801:, as read from a device. */
    private static final Present THREE = new Present(Set.of(9, 0x11, 0x19), "801:", Set.of(9, 0x11, 0x19));

    private static TreeMap<Integer, String> classOf(Object... dscpThenClass) {
        TreeMap<Integer, String> m = new TreeMap<>();
        for (int i = 0; i < dscpThenClass.length; i += 2) {
            m.put((Integer) dscpThenClass[i], (String) dscpThenClass[i + 1]);
        }
        return m;
    }

    @Test
    void aBareDeviceGetsBothFamiliesIPv4First() {
        assertEquals(List.of(
                V4 + "handle 800::9 u32 match ip tos 0x20 0xfc flowid 1:20",
                V4 + "handle 800::11 u32 match ip tos 0x40 0xfc flowid 1:21",
                V6 + "handle ::9 u32 match ip6 priority 0x20 0xfc flowid 1:20",
                V6 + "handle ::11 u32 match ip6 priority 0x40 0xfc flowid 1:21"),
                DscpFilters.converge("p1", Present.NONE, classOf(8, "1:20", 16, "1:21")));
    }

    @Test
    void anInstalledSetIsReplacedInPlaceAndWhatTheMapLacksDeletedLast() {
        assertEquals(List.of(
                V4 + "handle 800::9 u32 match ip tos 0x20 0xfc flowid 1:21",
                V4 + "handle 800::11 u32 match ip tos 0x40 0xfc flowid 1:21",
                V6 + "handle 801::9 u32 match ip6 priority 0x20 0xfc flowid 1:21",
                V6 + "handle 801::11 u32 match ip6 priority 0x40 0xfc flowid 1:21",
                "filter del dev p1 parent 1: protocol ipv6 prio 2 handle 801::19 u32",
                "filter del dev p1 parent 1: protocol ip prio 1 handle 800::19 u32"),
                DscpFilters.converge("p1", THREE, classOf(8, "1:21", 16, "1:21")));
    }

    @Test
    void noDscpsLeavesNoFiltersTheIPv6SetGoingFirst() {
        assertEquals(List.of(
                V6_DROP,
                "filter del dev p1 parent 1: protocol ip prio 1 handle 800::9 u32",
                "filter del dev p1 parent 1: protocol ip prio 1 handle 800::11 u32",
                "filter del dev p1 parent 1: protocol ip prio 1 handle 800::19 u32"),
                DscpFilters.converge("p1", THREE, classOf()));
        assertEquals(List.of(), DscpFilters.converge("p1", Present.NONE, classOf()));
    }

    @Test
    void anIPv6SetWithoutIPv4FiltersIsDeletedBeforeTheIPv4SetIsCreated() {
        // alone on the qdisc, the IPv6 set got root table 800:, and an IPv4 set created beside it would not
        Present lone = new Present(Set.of(), "800:", Set.of(0x11));
        assertEquals(List.of(
                V6_DROP,
                V4 + "handle 800::11 u32 match ip tos 0x40 0xfc flowid 1:21",
                V6 + "handle ::11 u32 match ip6 priority 0x40 0xfc flowid 1:21"),
                DscpFilters.converge("p1", lone, classOf(16, "1:21")));
    }

    @Test
    void aNewIPv6SetsHandlesAreKnownOnlyFromTheDevice() {
        Present created = Present.after(Present.NONE, Set.of(8, 16));
        assertEquals(new Present(Set.of(9, 0x11), null, Set.of(9, 0x11)), created);
        assertFalse(created.known());
        assertThrows(IllegalStateException.class, () -> DscpFilters.converge("p1", created, classOf(8, "1:20")));
        Present kept = Present.after(THREE, Set.of(8));
        assertEquals(new Present(Set.of(9), "801:", Set.of(9)), kept);
        assertTrue(kept.known());
        assertEquals(Present.NONE, Present.after(THREE, Set.of()));
    }

    @Test
    void parsesBothFamiliesAndNothingElse() {
        // iproute2 6.1 on Linux 6.18, Saba's filters plus someone else's at preference 3
        String show = """
                filter protocol ip pref 1 u32 chain 0\s
                filter protocol ip pref 1 u32 chain 0 fh 800: ht divisor 1\s
                filter protocol ip pref 1 u32 chain 0 fh 800::9 order 9 key ht 800 bkt 0 *flowid 1:21 not_in_hw\s
                  match 00200000/00fc0000 at 0
                filter protocol ip pref 1 u32 chain 0 fh 800::11 order 17 key ht 800 bkt 0 *flowid 1:21 not_in_hw\s
                  match 00400000/00fc0000 at 0
                filter protocol ipv6 pref 2 u32 chain 0\s
                filter protocol ipv6 pref 2 u32 chain 0 fh 801: ht divisor 1\s
                filter protocol ipv6 pref 2 u32 chain 0 fh 801::9 order 9 key ht 801 bkt 0 *flowid 1:21 not_in_hw\s
                  match 02000000/0fc00000 at 0
                filter protocol ipv6 pref 2 u32 chain 0 fh 801::11 order 17 key ht 801 bkt 0 *flowid 1:10 not_in_hw\s
                  match 04000000/0fc00000 at 0
                filter protocol ipv6 pref 2 u32 chain 0 fh 801::19 order 25 key ht 801 bkt 0 *flowid 1:10 not_in_hw\s
                  match 06000000/0fc00000 at 0
                filter protocol ip pref 3 u32 chain 0\s
                filter protocol ip pref 3 u32 chain 0 fh 802: ht divisor 1\s
                filter protocol ip pref 3 u32 chain 0 fh 802::5 order 5 key ht 802 bkt 0 *flowid 1:10 not_in_hw\s
                """;
        assertEquals(new Present(Set.of(9, 0x11), "801:", Set.of(9, 0x11, 0x19)), Present.parse(show));
        // the IPv6 set alone: its root table is 800:, and its filters are not IPv4 ones
        String lone = """
                filter protocol ipv6 pref 2 u32 chain 0\s
                filter protocol ipv6 pref 2 u32 chain 0 fh 800: ht divisor 1\s
                filter protocol ipv6 pref 2 u32 chain 0 fh 800::11 order 17 key ht 800 bkt 0 *flowid 1:10 not_in_hw\s
                  match 04000000/0fc00000 at 0
                """;
        assertEquals(new Present(Set.of(), "800:", Set.of(0x11)), Present.parse(lone));
        // an IPv6 set whose filters were all deleted beside the IPv4 set: the kernel keeps its empty root table
        String empty = """
                filter protocol ipv6 pref 2 u32 chain 0\s
                filter protocol ipv6 pref 2 u32 chain 0 fh 801: ht divisor 1\s
                """;
        assertEquals(new Present(Set.of(), "801:", Set.of()), Present.parse(empty));
        assertEquals(List.of(V6_DROP), DscpFilters.converge("p1", Present.parse(empty), classOf()));
        assertEquals(Present.NONE, Present.parse(""));
    }
}
