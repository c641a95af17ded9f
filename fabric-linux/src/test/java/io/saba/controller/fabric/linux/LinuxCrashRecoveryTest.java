package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.PortOriginals;
import io.saba.process.ProcessRunner;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.wire.DscpMap;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 2, Linux: a controller that crashed (its backend never closed) leaves its HTB tree on a device. The
 * next controller must know that the root was Saba's and delete it when it lets the port go, and
 * {@code restoreLeftovers} ({@code saba fabric restore}) must remove Saba's parts, with or without a saved original.
 * Real kernel, a veth in a namespace of its own.
 */
class LinuxCrashRecoveryTest {
    private static final String NS = "saba-rel-crash";
    private static final PortId PORT = new PortId("h1", 0);
    private static final LinuxPort DEV = new LinuxPort(NS, "x", 100_000_000L);
    private static final PortAllocation ALLOC = new PortAllocation(PORT, Map.of(1, 0, 2, 1), new double[] {0.6, 0.3},
            Map.of());

    private final ProcessRunner sh = new ProcessRunner();

    @BeforeEach
    void namespace() {
        RootAssumptions.assumeNetnsRoot("tc");
        sh.run(List.of("ip", "netns", "del", NS));
        sh.check("ip", "netns", "add", NS);
        sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
        sh.check("ip", "-n", NS, "link", "set", "x", "up");
    }

    @AfterEach
    void removeNamespace() {
        sh.run(List.of("ip", "netns", "del", NS));
    }

    private LinuxTcBackend backend(PortOriginals originals) {
        LinuxTcBackend b = new LinuxTcBackend(LinuxPortResolver.of(Map.of(PORT, DEV)), DscpMap.classSelectors(), 1.0,
                sh);
        if (originals != null) {
            b.keepOriginalsIn(originals);
        }
        return b;
    }

    /** The device's classes, as tc lists them (in no fixed order). */
    private java.util.Set<String> classes() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (String line : sh.check(DEV.tc("class", "show", "dev", "x")).split("\n")) {
            out.add(line.strip());
        }
        return out;
    }

    private String qdiscs() {
        return sh.check(DEV.tc("qdisc", "show", "dev", "x"));
    }

    @Test
    void theNextControllerAndRestoreRemoveARootACrashedControllerCreated(@TempDir Path state) {
        // a crash: the backend programmed the NIC and was never closed
        assertTrue(backend(PortOriginals.in(state)).apply(List.of(ALLOC)).ok());
        assertTrue(qdiscs().contains("qdisc htb 1: root"), qdiscs());

        // the next controller takes the port and lets it go: the kernel's default comes back, not an HTB root
        LinuxTcBackend next = backend(PortOriginals.in(state));
        assertTrue(next.apply(List.of(ALLOC)).ok());
        assertTrue(next.release(java.util.Set.of(PORT)).ok());
        assertFalse(qdiscs().contains("htb"), "the root Saba created is gone: " + qdiscs());

        // another crash; this time saba fabric restore puts it back
        assertTrue(backend(PortOriginals.in(state)).apply(List.of(ALLOC)).ok());
        try (LinuxTcBackend restore = backend(PortOriginals.in(state))) {
            assertTrue(restore.leftovers().get(PORT).contains("1:20"), restore.leftovers().toString());
            assertEquals(java.util.Set.of(PORT), restore.restoreLeftovers().applied());
            assertFalse(qdiscs().contains("htb"), "restore deleted Saba's root: " + qdiscs());
            assertTrue(restore.leftovers().isEmpty(), restore.leftovers().toString());
        }
        assertTrue(PortOriginals.in(state).all("linux").isEmpty(), "nothing left to restore");
    }

    @Test
    void withoutASavedOriginalSabasClassesAndFiltersAreRecognisedAndRemoved() {
        // the testbed's plain link: an HTB root with the link class and the non-Saba class, no filters
        assertEquals(null, TcBatch.run(sh, NS, TcDevice.converge("x", TcDevice.State.NONE,
                HtbPlan.baseline(DEV.linkRateBps()))));
        java.util.Set<String> plain = classes();
        assertTrue(backend(null).apply(List.of(ALLOC)).ok()); // and a crash, with no journal-dir
        try (LinuxTcBackend restore = backend(null)) {
            assertTrue(restore.leftovers().containsKey(PORT), "Saba's classes are recognised");
            assertTrue(restore.restoreLeftovers().ok());
            assertEquals(plain, classes(), "the plain link is back");
            assertTrue(sh.check(DEV.tc("filter", "show", "dev", "x", "parent", "1:")).isBlank());
            assertTrue(restore.leftovers().isEmpty(), restore.leftovers().toString());
        }
    }
}
