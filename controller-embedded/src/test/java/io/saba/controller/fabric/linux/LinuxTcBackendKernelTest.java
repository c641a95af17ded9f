package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.shell.CommandException;
import io.saba.controller.shell.CommandResult;
import io.saba.controller.shell.CommandRunner;
import io.saba.controller.shell.ProcessRunner;
import io.saba.controller.testbed.RootAssumptions;
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
