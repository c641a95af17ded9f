package io.saba.controller.fabric.linux;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Saba's classification on parent 1: of a port: one u32 filter per Saba DSCP and IP family, matching the DSCP
 * bits (the top six) of the IPv4 TOS byte or of the IPv6 traffic class, each leading to the DSCP's class.
 *
 * <p>A tc preference holds filters of one protocol, so each family has its own, and each its own u32 root hash
 * table. The first u32 filter set of a qdisc gets root table 800:, so the IPv4 filters' handles are 800::(dscp+1),
 * known without reading the device, as long as the IPv4 set is created first: the IPv6 set is created after it and
 * deleted before it. The IPv6 set's root table is numbered by a counter that keeps counting as sets come and go
 * beside it (801:, 802:, …), so its handles, (table)::(dscp+1), are known only once the device has been read; a
 * set created anew gets its filters by node alone (::(dscp+1)), and the device is read before it is next changed.
 * (A table of Saba's own numbering, linked from the root, would give fixed handles, but u32 keeps a qdisc's linked
 * tables, with their filters still bound to classes, until its last u32 set is gone: deleting the IPv6 set would
 * leave them behind, unlisted.)
 */
final class DscpFilters {
    /** Preference of the IPv4 filters ({@code protocol ip}). */
    static final String V4_PRIO = "1";
    /** Preference of the IPv6 filters ({@code protocol ipv6}). */
    static final String V6_PRIO = "2";

    /** "filter [parent 1: ]protocol ip pref 1 u32 chain 0 fh 800::11 order 17 key ht 800 bkt 0 *flowid 1:21". */
    private static final Pattern LINE = Pattern.compile("\\bprotocol (ip|ipv6) pref (\\d+) u32\\b(.*)");
    /** A filter ("fh 800::11") or a hash table ("fh 801: ht divisor 1"). */
    private static final Pattern HANDLE = Pattern.compile("\\bfh ([0-9a-f]+):(?::([0-9a-f]+))?(?=\\s|$)");

    private DscpFilters() {
    }

    /**
     * Saba's filters on a device.
     *
     * @param v4Nodes node ids of the IPv4 filters (800::N), i.e. DSCP + 1
     * @param v6Table the IPv6 preference's root hash table ("801:"); null when there is no IPv6 preference, or when
     *                it was created without being read since (then {@link #known} is false)
     * @param v6Nodes node ids of the IPv6 filters, i.e. DSCP + 1
     */
    record Present(Set<Integer> v4Nodes, String v6Table, Set<Integer> v6Nodes) {
        static final Present NONE = new Present(Set.of(), null, Set.of());

        Present {
            v4Nodes = Set.copyOf(v4Nodes);
            v6Nodes = Set.copyOf(v6Nodes);
        }

        boolean isEmpty() {
            return v4Nodes.isEmpty() && v6Table == null && v6Nodes.isEmpty();
        }

        /** Whether the IPv6 filters' handles are known, i.e. the lines of {@link #converge} can start from here. */
        boolean known() {
            return v6Nodes.isEmpty() || v6Table != null;
        }

        /** What the lines of {@link #converge} leave, going from {@code from} to filters for these DSCPs. */
        static Present after(Present from, Set<Integer> dscps) {
            Set<Integer> nodes = new TreeSet<>();
            dscps.forEach(d -> nodes.add(d + 1));
            return new Present(nodes, keepsV6(from, !dscps.isEmpty()) ? from.v6Table() : null, nodes);
        }

        /** Reads {@code tc filter show dev D parent 1:}; filters of other preferences and protocols are not Saba's. */
        static Present parse(String filterShow) {
            Set<Integer> v4 = new TreeSet<>();
            Set<Integer> v6 = new TreeSet<>();
            String v6Table = null;
            for (String line : filterShow.split("\n")) {
                Matcher m = LINE.matcher(line);
                Matcher h = m.find() ? HANDLE.matcher(m.group(3)) : null;
                if (h == null || !h.find()) {
                    continue;
                }
                if (m.group(1).equals("ip") && m.group(2).equals(V4_PRIO) && h.group(1).equals("800")
                        && h.group(2) != null) {
                    v4.add(Integer.parseInt(h.group(2), 16));
                } else if (m.group(1).equals("ipv6") && m.group(2).equals(V6_PRIO)) {
                    v6Table = v6Table != null ? v6Table : h.group(1) + ":";
                    if (h.group(2) != null) {
                        v6.add(Integer.parseInt(h.group(2), 16));
                    }
                }
            }
            return new Present(v4, v6Table, v6);
        }
    }

    /**
     * The lines that move a device's filters from {@code from} to one filter per family for each DSCP of
     * {@code classOfDscp}: existing filters are replaced in place (atomically, one by one), missing ones added,
     * and those the map lacks deleted after the replacements. An IPv6 set standing without IPv4 filters is deleted
     * first, so that the IPv4 set created next gets table 800:.
     *
     * @throws IllegalStateException if {@code from} does not know the IPv6 filters' handles
     */
    static List<String> converge(String dev, Present from, SortedMap<Integer, String> classOfDscp) {
        if (!from.known()) {
            throw new IllegalStateException("the IPv6 filters' table is not known: read the device first");
        }
        List<String> out = new ArrayList<>();
        String v4 = "filter %s dev " + dev + " parent 1: protocol ip prio " + V4_PRIO;
        String v6 = "filter %s dev " + dev + " parent 1: protocol ipv6 prio " + V6_PRIO;
        boolean keepV6 = keepsV6(from, !classOfDscp.isEmpty());
        if (from.v6Table() != null && !keepV6) {
            out.add(v6.formatted("del"));
        }
        Set<Integer> stale4 = new TreeSet<>(from.v4Nodes());
        Set<Integer> stale6 = new TreeSet<>(keepV6 ? from.v6Nodes() : Set.of());
        for (Map.Entry<Integer, String> e : classOfDscp.entrySet()) {
            int dscp = e.getKey();
            out.add(v4.formatted("replace") + " handle 800::" + node(dscp) + " u32 match ip tos " + tosByte(dscp)
                    + " 0xfc flowid " + e.getValue());
            stale4.remove(dscp + 1);
        }
        String v6Table = keepV6 ? from.v6Table() : ":"; // "::N" is node N of whatever root table the set gets
        for (Map.Entry<Integer, String> e : classOfDscp.entrySet()) {
            int dscp = e.getKey();
            // u32's "ip6 priority" is the 8-bit traffic class, which holds the DSCP in its top six bits like TOS
            out.add(v6.formatted("replace") + " handle " + v6Table + ":" + node(dscp) + " u32 match ip6 priority "
                    + tosByte(dscp) + " 0xfc flowid " + e.getValue());
            stale6.remove(dscp + 1);
        }
        for (int n : stale6) {
            out.add(v6.formatted("del") + " handle " + v6Table + ":" + Integer.toHexString(n) + " u32");
        }
        for (int n : stale4) {
            out.add(v4.formatted("del") + " handle 800::" + Integer.toHexString(n) + " u32");
        }
        return out;
    }

    /** Whether the IPv6 set stays: there is one, behind IPv4 filters, and filters are wanted. */
    private static boolean keepsV6(Present from, boolean filtering) {
        return filtering && from.v6Table() != null && !from.v4Nodes().isEmpty();
    }

    private static String node(int dscp) {
        return Integer.toHexString(dscp + 1);
    }

    private static String tosByte(int dscp) {
        return "0x" + Integer.toHexString(dscp << 2);
    }
}
