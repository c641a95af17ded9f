package io.saba.controller.fabric.infiniband;

import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.awaitPorts;
import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.checkPort;
import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.ep;
import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbTools;
import io.saba.controller.topology.infiniband.InfinibandPathResolver;
import io.saba.controller.topology.infiniband.InfinibandPathResolverProvider;
import io.saba.controller.topology.infiniband.NetFiles;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.wire.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 6, as an operator meets it: the controller starts on a subnet whose subnet manager has not swept
 * yet (ibsim running, OpenSM not: every LID 0, no forwarding table), applications report connections through the
 * client library (batched), and only then OpenSM starts. The connections must not be lost: they wait, counted, and
 * the refresh that sees OpenSM's routes gives their ports Saba's tables ({@code smpquery} reads them back). A
 * pulled cable is then followed by the controller's own refresh timer at its default period, with no refresh asked
 * for by the test. Before the fix the three connections were skipped ("no route to LID 0") and never allocated.
 */
class InfinibandControllerBeforeSubnetManagerTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void tools() {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
    }

    @Test
    void connectionsReportedBeforeOpenSmAreAllocatedOnceItRoutesAndARerouteFollowsTheRefresh() throws Exception {
        Path net = NetFiles.write(tmp, "fat-tree", NetFiles.fatTree(2, 4, 2));
        try (IbSim sim = IbSim.withoutSubnetManager(net, 0)) {
            IbTools tools = sim.tools();
            IbSubnet unswept = tools.discover();
            assertEquals(8, unswept.hosts().size());
            assertEquals(8, unswept.unrouted(unswept.hosts().keySet()).size(), "no host has a LID yet");

            try (EmbeddedController c = ControllerConfig.load(ControllerOnIbSim.config(tmp, sim, 8))) {
                c.start();
                InfinibandPathResolver resolver = (InfinibandPathResolver) c.controller().resolver();
                InfinibandBackend backend = (InfinibandBackend) c.backend();
                assertEquals(InfinibandPathResolverProvider.DEFAULT_REFRESH_SECONDS, resolver.refreshSeconds());
                try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target())
                        .withDeadline(Duration.ofSeconds(10)))) {
                    SabaApplication lr = client.register(new AppSpec("app-lr", "lr", "spark", "u", 0));
                    SabaApplication sort = client.register(new AppSpec("app-sort", "sort", "spark", "u", 0));
                    lr.assigned().get();
                    sort.assigned().get();
                    lr.connectionOpened(ep(1, 4000), ep(5, 5000), Transport.RDMA);
                    sort.connectionOpened(ep(6, 4001), ep(2, 5001), Transport.RDMA);
                    sort.connectionOpened(ep(3, 4002), ep(4, 5002), Transport.RDMA);
                    // the client sends them in one batched report; each is kept, waiting for its route
                    waitFor(() -> c.controller().connectionCount() == 3);
                    assertEquals(3, c.controller().unroutedCount());
                    assertEquals(3, c.controller().status(false).unrouted());
                    assertTrue(c.controller().metrics().prometheus().contains("\nsaba_connections_unrouted 3\n"));
                    assertTrue(c.controller().recomputer().current().isEmpty(), "no route, no port yet");

                    long startedOpenSm = System.nanoTime();
                    sim.startOpenSm();
                    IbSubnet routed = tools.discover();
                    Set<PortId> onPaths = ports(routed);
                    awaitPorts(c, onPaths);
                    System.out.printf("OpenSM started; %d path ports programmed %.1f s later%n", onPaths.size(),
                            (System.nanoTime() - startedOpenSm) / 1e9);
                    assertEquals(0, c.controller().unroutedCount());
                    checkFabric(tools, routed, onPaths, c, backend);

                    // a pulled spine cable: OpenSM re-routes, and the controller's timer (not the test) finds it
                    List<PortId> before = routed.path("h01", "h05", 0);
                    PortId spineHop = before.stream().filter(p -> p.node().startsWith("spine")).findFirst()
                            .orElseThrow();
                    AtomicLong movedAtRefresh = new AtomicLong(-1);
                    resolver.onPathsChanged(() -> {
                        if (!routeOrNone(resolver.fabric()).equals(before)) {
                            movedAtRefresh.compareAndSet(-1, resolver.refreshes());
                        }
                    });
                    sim.console("Unlink \"" + spineHop.node() + "\"[" + spineHop.port() + "]");
                    waitFor(() -> {
                        IbSubnet now = tools.discover();
                        return now.unrouted(now.hosts().keySet()).isEmpty() && !routeOrNone(now).equals(before);
                    });
                    long reroutedAt = System.nanoTime();
                    long refreshesThen = resolver.refreshes();
                    IbSubnet rerouted = tools.discover();
                    Set<PortId> nowOnPaths = ports(rerouted);
                    awaitPorts(c, nowOnPaths);
                    System.out.printf("cable %s pulled: h01->h05 %s -> %s; the controller moved it at its refresh"
                            + " #%d (#%d had begun when OpenSM's new route was seen), tables %.1f s later%n",
                            spineHop, before, rerouted.path("h01", "h05", 0), movedAtRefresh.get(), refreshesThen,
                            (System.nanoTime() - reroutedAt) / 1e9);
                    assertTrue(movedAtRefresh.get() > 0 && movedAtRefresh.get() <= refreshesThen + 1,
                            "the first refresh begun after the re-route (or one under way) moved the connection");
                    assertFalse(nowOnPaths.contains(spineHop));
                    checkFabric(tools, rerouted, nowOnPaths, c, backend);

                    lr.deregister();
                    sort.deregister();
                    awaitPorts(c, Set.of());
                    assertTrue(backend.managedPorts().isEmpty(), "every port given back");
                }
            }
        }
    }

    /** h01 → h05's route, or an empty one while a switch has none (mid re-route). */
    private static List<PortId> routeOrNone(IbSubnet f) {
        try {
            return f.path("h01", "h05", 0);
        } catch (RuntimeException midReroute) {
            return List.of();
        }
    }

    /** The ports of the test's three connections: h01 → h05 and h06 → h02 cross the spines, h03 → h04 one leaf. */
    private static Set<PortId> ports(IbSubnet f) {
        Set<PortId> out = new TreeSet<>();
        out.addAll(f.path("h01", "h05", 0));
        out.addAll(f.path("h06", "h02", 0));
        out.addAll(f.path("h03", "h04", 0));
        return out;
    }

    /** Exactly the path ports are allocated and managed, and each carries its allocation's tables. */
    private static void checkFabric(IbTools tools, IbSubnet f, Set<PortId> onPaths, EmbeddedController c,
                                    InfinibandBackend backend) {
        Map<PortId, PortAllocation> allocations = c.controller().recomputer().current();
        assertEquals(onPaths, allocations.keySet());
        assertEquals(onPaths, backend.managedPorts().keySet());
        for (PortId p : onPaths) {
            checkPort(tools, f, p, allocations.get(p), backend);
        }
    }
}
