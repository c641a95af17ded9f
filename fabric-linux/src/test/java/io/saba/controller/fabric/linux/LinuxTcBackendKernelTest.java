package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.process.CommandException;
import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import io.saba.process.ProcessRunner;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The backend against the real kernel, on a veth inside a private namespace: the device starts without any
 * qdisc of ours, like a host's own NIC (host-based enforcement).
 */
class LinuxTcBackendKernelTest {
    private static final String NS = "saba-jt-kernel";
    private static final PortId PORT = new PortId("h1", 0);
    private static final LinuxPort DEV = new LinuxPort(NS, "x", 100_000_000L);

    private final ProcessRunner sh = new ProcessRunner();

    @BeforeEach
    void namespace() {
        RootAssumptions.assumeNetnsRoot("tc", "nft");
        sh.run(List.of("ip", "netns", "del", NS)); // a leftover from a killed run
        sh.check("ip", "netns", "add", NS);
        sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
        sh.check("ip", "-n", NS, "link", "set", "x", "up");
        sh.check("ip", "-n", NS, "link", "set", "y", "up");
    }

    @AfterEach
    void removeNamespace() {
        sh.run(List.of("ip", "netns", "del", NS));
    }

    private static PortAllocation alloc(Map<Integer, Integer> q, double... w) {
        return new PortAllocation(PORT, q, w, Map.of());
    }

    private String show(String what) {
        return sh.check(DEV.tc(what, "show", "dev", "x"));
    }

    @Test
    void installsUpdatesInPlaceAndRemoves() {
        try (LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(),
                1.0, sh)) {
            assertTrue(b.apply(List.of(alloc(Map.of(1, 0, 2, 1, 3, 2), 0.6, 0.3, 0.1))).ok());
            String classes = show("class");
            assertTrue(classes.contains("class htb 1:20 parent 1:1 leaf 20: prio 0 rate 60Mbit ceil 100Mbit"), classes);
            assertTrue(classes.contains("class htb 1:22 parent 1:1 leaf 22: prio 0 rate 10Mbit ceil 100Mbit"), classes);
            // 10 ms of each rate, not tc's one-frame default: 60 Mbit/s → 75,000 B, the 100 Mbit/s ceil → 125,000 B
            assertTrue(classes.contains("rate 60Mbit ceil 100Mbit burst 75000b cburst 125000b"), classes);
            assertTrue(classes.contains("class htb 1:1 root rate 100Mbit ceil 100Mbit burst 125000b cburst 125000b"),
                    classes);
            String filters = sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:"));
            // DSCP 16 (CS2) is TOS 0x40: the u32 key is the first IPv4 word, TOS in its second byte.
            assertTrue(filters.contains("fh 800::11") && filters.contains("match 00400000/00fc0000 at 0")
                    && filters.contains("flowid 1:21"), filters);
            assertTrue(show("qdisc").contains("pfifo 20: parent 1:20 limit 83p"), show("qdisc"));

            assertTrue(b.apply(List.of(alloc(Map.of(1, 1, 2, 0), 0.25, 0.75))).ok());
            classes = show("class");
            assertTrue(classes.contains("class htb 1:20 parent 1:1 leaf 20: prio 0 rate 25Mbit"), classes);
            assertFalse(classes.contains("1:22"), classes);
            filters = sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:"));
            // the departed level's DSCP (24, CS3) stays classified, now with the nearest level still there (2)
            assertTrue(filters.contains("fh 800::19 order 25 key ht 800 bkt 0 *flowid 1:20"), filters);
        }
        assertFalse(show("qdisc").contains("htb"), "close removes the root it created: " + show("qdisc"));
    }

    @Test
    void aConfiguredBufferIsWhatTheKernelHolds() {
        try (LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(),
                1.0, sh, false, 0.030)) {
            assertTrue(b.apply(List.of(alloc(Map.of(1, 0, 2, 1), 0.6, 0.4))).ok());
            String qdiscs = show("qdisc");
            assertTrue(qdiscs.contains("pfifo 20: parent 1:20 limit 248p")
                    && qdiscs.contains("pfifo 21: parent 1:21 limit 248p"), qdiscs);
        }
    }

    @Test
    void eachQueueCountsTheBytesItsLevelsSent() {
        RootAssumptions.assumeNetnsRoot("ping");
        // x sends to a neighbour that never answers (y drops what it gets): what leaves x is what its classes count
        sh.check("ip", "-n", NS, "addr", "add", "10.254.0.1/24", "dev", "x");
        sh.check("ip", "-n", NS, "neigh", "add", "10.254.0.2", "lladdr", "02:00:00:00:00:02", "dev", "x", "nud",
                "permanent");
        try (LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(),
                0.9, sh)) {
            assertTrue(b.countsQueueBytes());
            assertEquals(Map.of(), b.queueBytes(PORT), "not managed yet");
            assertTrue(b.apply(List.of(alloc(Map.of(0, 0, 1, 1, 2, 2), 0.3, 0.3, 0.3))).ok());
            // queue 0 holds level 0, untagged traffic: it has no class of its own (the non-Saba class carries it)
            assertEquals(Map.of(1, 0L, 2, 0L), b.queueBytes(PORT), "new classes start at 0");
            // 20 pings of 1,000 bytes at CS2 (level 2, TOS 0x40) and 5 at CS1 (level 1): 1,042 bytes each on the
            // wire (ICMP 8 + IPv4 20 + Ethernet 14 bytes of headers)
            ping(20, "0x40");
            ping(5, "0x20");
            Map<Integer, Long> bytes = b.queueBytes(PORT);
            assertEquals(20 * 1_042L, bytes.get(2), bytes.toString());
            assertEquals(5 * 1_042L, bytes.get(1), bytes.toString());
            assertEquals(java.util.Set.of(1, 2), bytes.keySet());
            assertEquals(Map.of(), b.queueBytes(new PortId("h9", 0)), "a port it does not manage");
        }
    }

    private void ping(int count, String tos) {
        sh.run(List.of("ip", "netns", "exec", NS, "ping", "-n", "-q", "-c", String.valueOf(count), "-i", "0.01", "-s",
                "1000", "-Q", tos, "-W", "1", "10.254.0.2")); // no answer ever comes: exit status 1
    }

    @Test
    void aFailureHalfWayLeavesThePreviousConfiguration() {
        // the kernel rejects the line that adds class 1:23 (its device does not exist), half-way through a batch
        CommandRunner failing = new CommandRunner() {
            @Override
            public CommandResult run(List<String> command, String stdin) {
                if (stdin != null && stdin.contains("classid 1:23 ")) {
                    stdin = stdin.replaceAll("(?m)^class add dev x (.*classid 1:23 .*)$", "class add dev injected $1");
                }
                return sh.run(command, stdin);
            }
        };
        try (LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(),
                1.0, failing)) {
            assertTrue(b.apply(List.of(alloc(Map.of(1, 0, 2, 1), 0.6, 0.4))).ok());
            String classes = show("class");
            String filters = sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:"));
            // Classes 1:20 and 1:21 change and 1:22 is added before 1:23 fails.
            ApplyResult r = b.apply(List.of(alloc(Map.of(1, 0, 2, 1, 3, 2, 4, 3), 0.1, 0.2, 0.3, 0.4)));
            assertFalse(r.ok());
            assertTrue(r.failed().get(PORT).contains("injected"), r.failed().toString());
            assertEquals(classes, show("class"), "the rollback removed 1:22 and restored 1:20/1:21's rates");
            assertEquals(filters, sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:")));
        }
    }

    @Test
    void nftTaggingIsInstalledAndRemoved() {
        try (LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of()), DscpMap.classSelectors(), 1.0, sh)) {
            b.tagger().tag(NS, Map.of(7337, 8, 40001, 24));
            String rules = b.tagger().list(NS);
            assertTrue(rules.contains("tcp sport 7337 ip dscp set cs1") && rules.contains("ip6 dscp set cs3"), rules);
            b.tagger().tag(NS, Map.of(7337, 16)); // replaced as a whole
            rules = b.tagger().list(NS);
            assertTrue(rules.contains("ip dscp set cs2") && !rules.contains("40001"), rules);
        }
        assertThrows(CommandException.class, () -> new NftDscpTagger(sh).list(NS), "close removed the table");
    }
}
