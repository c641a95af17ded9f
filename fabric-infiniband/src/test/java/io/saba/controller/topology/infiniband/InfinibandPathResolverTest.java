package io.saba.controller.topology.infiniband;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.topology.RouteUnavailableException;
import io.saba.core.alloc.PortId;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The resolver against OpenSM-routed ibsim subnets, held to {@code ibtracert} for every host pair and LID. */
class InfinibandPathResolverTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void tools() {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
    }

    @ParameterizedTest
    @ValueSource(strings = {"net", "net.1", "net.2sw2path", "net.2sw2path4hca", "net.2sw2path4hca2port"})
    void shippedExamplesMatchIbtracert(String example) {
        try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve(example), 0)) {
            int pairs = checkAllPairs(sim);
            System.out.println(example + ": resolver = ibtracert for " + pairs + " (host pair, LID) routes");
        }
    }

    @Test
    void fatTreeWithLmcMatchesIbtracertOnEveryLid() {
        Path net = NetFiles.write(tmp, "fat-tree", NetFiles.fatTree(4, 4, 4));
        try (IbSim sim = new IbSim(net, 1)) {
            IbSubnet f = sim.tools().discover();
            assertEquals(8, f.switchNames().size());
            assertEquals(16, f.hosts().size());
            f.hosts().values().forEach(h -> assertEquals(2, h.lidCount(), h.name() + " has 2^LMC LIDs"));
            int pairs = checkAllPairs(sim);
            assertEquals(16 * 15 * 2, pairs);
            // the fat tree spreads LIDs over spines: across all pairs more than one spine carries traffic, and
            // some pair's two LIDs take different spines (LMC multipath is real here, not a copy of one route)
            InfinibandPathResolver all = new InfinibandPathResolver(sim.tools()::discover, Map.of(), 8,
                    InfinibandPathResolver.Multipath.ALL, 0);
            boolean differs = false;
            Set<String> spines = new HashSet<>();
            for (String a : f.hosts().keySet()) {
                for (String b : f.hosts().keySet()) {
                    if (!a.equals(b)) {
                        List<List<PortId>> p = all.paths(a, b);
                        differs |= !p.get(0).equals(p.get(1));
                        // multipath ALL charges a connection to every port either LID's route crosses
                        Set<PortId> union = new HashSet<>(p.get(0));
                        union.addAll(p.get(1));
                        assertEquals(union, new HashSet<>(all.path(a, b)), a + " -> " + b);
                        p.forEach(path -> path.forEach(port -> {
                            if (port.node().startsWith("spine")) {
                                spines.add(port.node());
                            }
                        }));
                    }
                }
            }
            assertTrue(differs, "some pair's two LIDs route differently");
            assertTrue(spines.size() > 1, "traffic spreads over spines: " + spines);
            System.out.println("fat tree 4 spines x 4 leaves x 4 hosts, LMC 1: " + pairs
                    + " routes equal ibtracert; spines used " + spines);
        }
    }

    /** Pulls a spine cable on ibsim's console: OpenSM re-routes, refresh() sees it, listeners run, paths move. */
    @Test
    void refreshFollowsOpenSmAfterACableIsPulled() {
        Path net = NetFiles.write(tmp, "fat-tree", NetFiles.fatTree(2, 4, 2));
        try (IbSim sim = new IbSim(net, 0)) {
            AtomicInteger changes = new AtomicInteger();
            try (InfinibandPathResolver r = new InfinibandPathResolver(sim.tools()::discover,
                    Map.of("h01", List.of("10.0.0.1"), "lid:" + sim.tools().discover().host("h08").baseLid(),
                            List.of("10.0.0.8")), 4, InfinibandPathResolver.Multipath.BASE, 0)) {
                r.onPathsChanged(changes::incrementAndGet);
                assertEquals("h01", r.hostOf("10.0.0.1").orElseThrow());
                assertEquals("h08", r.hostOf("10.0.0.8").orElseThrow());
                assertFalse(r.refresh(), "nothing changed yet");
                List<PortId> before = r.path("h01", "h08");
                PortId spineHop = before.stream().filter(p -> p.node().startsWith("spine")).findFirst().orElseThrow();
                // pull the cable from that spine down to h08's leaf
                sim.console("Unlink \"" + spineHop.node() + "\"[" + spineHop.port() + "]");
                IbSim.waitFor(() -> {
                    try {
                        return r.refresh() && !r.path("h01", "h08").equals(before);
                    } catch (RuntimeException notYetRouted) {
                        return false;
                    }
                }, 60_000);
                List<PortId> after = r.path("h01", "h08");
                assertNotEquals(before, after);
                assertFalse(after.contains(spineHop), after + " avoids the pulled cable");
                assertTrue(changes.get() >= 1);
                System.out.println("cable " + spineHop + " pulled: h01->h08 moved from " + before + " to " + after);
            }
        }
    }

    /**
     * A subnet before its subnet manager's first sweep: the resolver starts (an address keyed by a LID nobody has yet
     * is no error), says routes are not there yet rather than that they never will be, and waits at start for
     * OpenSM when asked, no longer than asked; once OpenSM has routed, a refresh finds the routes.
     */
    @Test
    void beforeOpenSmRoutesAreNotThereYetAndTheStartWaitsNoLongerThanAsked() throws Exception {
        Path net = NetFiles.write(tmp, "fat-tree", NetFiles.fatTree(2, 4, 2));
        try (IbSim sim = IbSim.withoutSubnetManager(net, 0)) {
            Map<String, List<String>> addresses = Map.of("h01", List.of("10.0.0.1"), "h05", List.of("10.0.0.5"),
                    "lid:7", List.of("10.0.0.7"));
            List<IbSubnet> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.function.Supplier<IbSubnet> discovery = () -> {
                IbSubnet f = sim.tools().discover();
                seen.add(f);
                return f;
            };
            long t0 = System.nanoTime();
            try (InfinibandPathResolver r = new InfinibandPathResolver(discovery, addresses, 8,
                    InfinibandPathResolver.Multipath.BASE, 0, 2)) {
                System.out.printf("a 2 s wait for a subnet manager that never came returned after %.1f s, %d"
                        + " discoveries%n", (System.nanoTime() - t0) / 1e9, seen.size());
                assertTrue(seen.size() >= 2, "it looked again while it waited");
                assertFalse(r.fabric().unrouted(r.fabric().hosts().keySet()).isEmpty());
                assertEquals("h01", r.hostOf("10.0.0.1").orElseThrow());
                assertTrue(r.hostOf("10.0.0.7").isEmpty(), "no host has LID 7 yet");
                assertTrue(r.mayResolveLater("10.0.0.7"));
                assertFalse(r.mayResolveLater("10.0.0.9"), "an address nobody configured never resolves");
                RouteUnavailableException e = assertThrows(RouteUnavailableException.class,
                        () -> r.path("h01", "h05"));
                assertTrue(e.getMessage().contains("no route to LID 0"), e.getMessage());
            }

            seen.clear();
            java.util.concurrent.CompletableFuture<InfinibandPathResolver> starting =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> new InfinibandPathResolver(discovery,
                            Map.of("h01", List.of("10.0.0.1"), "h05", List.of("10.0.0.5")), 8,
                            InfinibandPathResolver.Multipath.BASE, 0, 300));
            IbSim.waitFor(() -> !seen.isEmpty(), 60_000); // it has looked, found no LIDs, and waits
            assertFalse(starting.isDone());
            sim.startOpenSm();
            try (InfinibandPathResolver r = starting.get(300, java.util.concurrent.TimeUnit.SECONDS)) {
                assertFalse(seen.get(0).unrouted(List.of("h01", "h05")).isEmpty(), "it started before OpenSM");
                assertEquals(List.of(), r.fabric().unrouted(List.of("h01", "h05")), "and returned once routed");
                assertFalse(r.path("h01", "h05").isEmpty());
            }
        }
    }

    private static int checkAllPairs(IbSim sim) {
        IbSubnet f = sim.tools().discover();
        int n = 0;
        for (IbSubnet.Host a : f.hosts().values()) {
            for (IbSubnet.Host b : f.hosts().values()) {
                if (a.equals(b)) {
                    continue;
                }
                for (int i = 0; i < b.lidCount(); i++) {
                    String trace = sim.tools().run("ibtracert", String.valueOf(a.baseLid()),
                            String.valueOf(b.baseLid() + i));
                    List<PortId> expected = Tracert.ports(trace, f.switchNames());
                    assertFalse(expected.isEmpty() && a.nodeGuid() != b.nodeGuid(), trace);
                    assertEquals(expected, f.path(a.name(), b.name(), i),
                            a.name() + " -> " + b.name() + " LID +" + i + "\n" + trace);
                    n++;
                }
            }
        }
        return n;
    }
}
