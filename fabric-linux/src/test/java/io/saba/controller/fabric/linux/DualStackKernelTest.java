package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.process.ProcessRunner;
import io.saba.wire.DscpMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * IPv4 and IPv6 packets through the backend's classes on the real kernel: pings with a set TOS / traffic class
 * leave a veth whose HTB classes count them. The veth runs without ARP and without IPv6's own chatter (no
 * link-local address, no router solicitations, no solicited-node group to report), so every packet a class counts is
 * one of the test's: 1,042 bytes for a 1,000-byte IPv4 ping (ICMP 8 + IPv4 20 + Ethernet 14), 1,062 for IPv6
 * (ICMPv6 8 + IPv6 40 + Ethernet 14). Nobody answers; what leaves x is all there is.
 */
class DualStackKernelTest {
    private static final String NS = "saba-jt-dual";
    private static final PortId PORT = new PortId("h1", 0);
    private static final LinuxPort DEV = new LinuxPort(NS, "x", 100_000_000L);
    /** Levels 1 and 2 (CS1, CS2) on the port, in queues 1 and 2; level 0 (untagged) in queue 0. */
    private static final PortAllocation ALLOC = new PortAllocation(PORT, Map.of(0, 0, 1, 1, 2, 2),
            new double[] {0.1, 0.45, 0.45}, Map.of());
    private static final Pattern CLASS =
            Pattern.compile("(?m)^class htb (1:[0-9a-f]+) .*\\n\\s*Sent (\\d+) bytes (\\d+) pkt");

    private final ProcessRunner sh = new ProcessRunner();

    @BeforeEach
    void namespace() {
        RootAssumptions.assumeNetnsRoot("tc", "ping", "sysctl");
        sh.run(List.of("ip", "netns", "del", NS));
        sh.check("ip", "netns", "add", NS);
        sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
        sh.check("ip", "netns", "exec", NS, "sysctl", "-q", "-w", "net.ipv6.conf.x.addr_gen_mode=1",
                "net.ipv6.conf.x.router_solicitations=0", "net.ipv6.conf.y.disable_ipv6=1");
        sh.check("ip", "-n", NS, "link", "set", "x", "arp", "off", "up");
        sh.check("ip", "-n", NS, "link", "set", "y", "up");
        sh.check("ip", "-n", NS, "addr", "add", "10.254.1.1/24", "dev", "x");
        sh.check("ip", "-n", NS, "-6", "addr", "add", "fd00:5aba::1/64", "dev", "x", "nodad");
    }

    @AfterEach
    void removeNamespace() {
        sh.run(List.of("ip", "netns", "del", NS));
    }

    private LinuxTcBackend backend() {
        return new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(), 0.9, sh);
    }

    @Test
    void taggedPacketsOfBothFamiliesReachTheirLevelsQueue() {
        try (LinuxTcBackend b = backend()) {
            assertTrue(b.apply(List.of(ALLOC)).ok());
            ping6(3, "0x20");   // CS1: level 1, queue 1
            ping6(4, "0x40");   // CS2: level 2, queue 2
            ping6(2, "0x42");   // CS2 with ECN's ECT(0): the ECN bits are not the DSCP's
            ping6(5, "0x60");   // CS3: level 3 is not on the port; its nearest, level 2, carries it
            ping6(6, null);     // untagged: outside Saba
            ping4(7, "0x40");
            ping4(8, null);
            assertEquals(Map.of(
                    "1:1", new Counter(20 * 1_062L + 15 * 1_042L, 35),
                    "1:10", new Counter(6 * 1_062L + 8 * 1_042L, 14),
                    "1:21", new Counter(3 * 1_062L, 3),
                    "1:22", new Counter(11 * 1_062L + 7 * 1_042L, 18)), counters());
        }
    }

    @Test
    void anUpdateRepointsTheIPv6FiltersInPlace() {
        try (LinuxTcBackend b = backend()) {
            assertTrue(b.apply(List.of(ALLOC)).ok());
            // levels 1 and 2 now share queue 1: class 1:22 goes, which the kernel refuses while a filter points at it
            assertTrue(b.apply(List.of(new PortAllocation(PORT, Map.of(0, 0, 1, 1, 2, 1), new double[] {0.1, 0.9},
                    Map.of()))).ok());
            String filters = sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:"));
            // one IPv6 filter per Saba DSCP still, under the handles the kernel gave them when they were created
            assertEquals(7, filters.lines().filter(l -> l.contains("protocol ipv6 pref 2 u32 chain 0 fh 801::"))
                    .count(), filters);
            assertTrue(filters.contains("fh 801::11 order 17 key ht 801 bkt 0 *flowid 1:21 "), filters);
            ping6(3, "0x40");
            ping4(2, "0x40");
            Counter both = new Counter(3 * 1_062L + 2 * 1_042L, 5);
            assertEquals(Map.of("1:1", both, "1:21", both), counters());
        }
    }

    @Test
    void restoreRemovesTheIPv6FiltersOfACrashedController() {
        PlainLink.install(sh, DEV); // the testbed's plain link: the root stays, Saba's parts go
        assertTrue(backend().apply(List.of(ALLOC)).ok()); // and a crash: never closed
        String filters = sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:"));
        assertTrue(filters.contains("protocol ipv6 pref 2 u32 chain 0 fh 801::11 "), filters);
        try (LinuxTcBackend restore = backend()) {
            assertTrue(restore.leftovers().get(PORT).contains("7 IPv4 and 7 IPv6 DSCP filters"),
                    restore.leftovers().toString());
            assertTrue(restore.restoreLeftovers().ok());
            assertEquals("", sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:")).strip());
            ping6(4, "0x40");
            assertEquals(Map.of("1:1", new Counter(4 * 1_062L, 4), "1:10", new Counter(4 * 1_062L, 4)), counters());
        }
    }

    @Test
    void aLoneIPv6SetLeftOnTheDeviceIsRebuiltBehindTheIPv4One() {
        // a leftover IPv6 set without the IPv4 one: u32 gave its root table 800:, which the IPv4 handles need
        PlainLink.install(sh, DEV);
        assertNull(TcBatch.run(sh, NS, List.of("filter replace dev x parent 1: protocol ipv6 prio 2 handle ::11 u32 "
                + "match ip6 priority 0x40 0xfc flowid 1:10")));
        assertTrue(sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:")).contains("fh 800::11 "));
        try (LinuxTcBackend b = backend()) {
            assertTrue(b.apply(List.of(ALLOC)).ok(), "the IPv6 set is deleted before the IPv4 one is created");
            ping6(2, "0x40");
            ping4(3, "0x40");
            assertEquals(new Counter(2 * 1_062L + 3 * 1_042L, 5), counters().get("1:22"));
        }
    }

    /** Bytes and packets a class sent. */
    private record Counter(long bytes, long packets) {
    }

    private Map<String, Counter> counters() {
        Map<String, Counter> out = new TreeMap<>();
        Matcher m = CLASS.matcher(sh.check(DEV.tc("-s", "class", "show", "dev", "x")));
        while (m.find()) {
            long bytes = Long.parseLong(m.group(2));
            if (bytes > 0) {
                out.put(m.group(1), new Counter(bytes, Long.parseLong(m.group(3))));
            }
        }
        return out;
    }

    private void ping6(int count, String tclass) {
        ping(count, tclass, "-6", "fd00:5aba::2");
    }

    private void ping4(int count, String tos) {
        ping(count, tos, "-4", "10.254.1.2");
    }

    private void ping(int count, String tos, String family, String to) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", NS, "ping", family, "-n", "-q", "-c",
                String.valueOf(count), "-i", "0.01", "-s", "1000", "-W", "1"));
        if (tos != null) {
            c.addAll(List.of("-Q", tos));
        }
        c.add(to);
        sh.run(c); // no answer ever comes: exit status 1
    }
}
