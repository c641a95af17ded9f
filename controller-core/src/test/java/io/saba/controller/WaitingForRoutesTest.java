package io.saba.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.ControllerState;
import io.saba.controller.state.Mutation;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.RouteUnavailableException;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topologies;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 6 in the controller: a connection the fabric has no route for yet (a discovered subnet before its
 * subnet manager's first sweep) is kept, counted and allocated once the fabric's next change brings its route,
 * instead of being refused (and, batched, skipped). The fabric here is a static topology that answers as an
 * unswept InfiniBand subnet does until {@link Subnet#sweep}; the real one (ibsim and OpenSM) is
 * {@code InfinibandControllerBeforeSubnetManagerTest} in fabric-infiniband.
 */
class WaitingForRoutesTest {
    private static final ModelCatalog CATALOG = new ModelCatalog(Map.of(
            "lr", SensitivityModel.of(5, -8, 4), "sort", SensitivityModel.of(1.5, -0.5)));

    /**
     * Four hosts on one switch. Before {@link #sweep} no route exists, and h4 (configured by its LID, which it
     * does not have yet) owns no address; after it, the topology's paths; {@link #pullCable} takes them away again.
     */
    static final class Subnet implements PathResolver {
        private final TopologyResolver topology = new TopologyResolver(Topologies.singleSwitch(4, 10, 8),
                Map.of("h1", List.of("10.0.0.1"), "h2", List.of("10.0.0.2"), "h3", List.of("10.0.0.3"),
                        "h4", List.of("10.0.0.4")));
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private volatile boolean routed;

        void sweep() {
            routed = true;
            listeners.forEach(Runnable::run);
        }

        void pullCable() {
            routed = false;
            listeners.forEach(Runnable::run);
        }

        @Override
        public Optional<String> hostOf(String ip) {
            return !routed && ip.equals("10.0.0.4") ? Optional.empty() : topology.hostOf(ip);
        }

        @Override
        public boolean mayResolveLater(String ip) {
            return ip.equals("10.0.0.4");
        }

        @Override
        public List<PortId> path(String src, String dst) {
            if (!routed) {
                throw new RouteUnavailableException("switch s0 has no route to LID 0 (" + dst + ")");
            }
            return topology.path(src, dst);
        }

        @Override
        public int queues(PortId port) {
            return topology.queues(port);
        }

        @Override
        public int minQueues() {
            return topology.minQueues();
        }

        @Override
        public void onPathsChanged(Runnable listener) {
            listeners.add(listener);
        }
    }

    private static SabaController start(Subnet subnet, DryRunBackend backend, Path journal) {
        return new SabaController(subnet, new Allocator(new MinSlowdownSolver(), 8, 0.9), CATALOG, backend,
                new LocalLog(new Journal(journal, FsyncPolicy.NEVER, 20)), Duration.ofMinutes(5), new Metrics(),
                Duration.ZERO).start();
    }

    private static ConnectionKey key(int src, int dst, int port) {
        return new ConnectionKey("10.0.0." + src, port, "10.0.0." + dst, 5000, Transport.TCP);
    }

    private static Set<PortId> pathPorts(Subnet s, int... hostPairs) {
        Set<PortId> out = new HashSet<>();
        for (int i = 0; i < hostPairs.length; i += 2) {
            out.addAll(s.path("h" + hostPairs[i], "h" + hostPairs[i + 1]));
        }
        return out;
    }

    @Test
    void connectionsWithoutARouteWaitAndTakeTheirPortsWhenTheRoutesAppear(@TempDir Path dir) throws Exception {
        Subnet subnet = new Subnet();
        DryRunBackend backend = new DryRunBackend(false, 100);
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (SabaController c = start(subnet, backend, dir)) {
            c.register("", new Mutation.Register("a", "lr", "spark", "u", 0, ""));
            List<Mutation> batch = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                batch.add(new Mutation.Opened("a", key(1, 2, 10_000 + i), 0));
            }
            batch.add(new Mutation.Opened("a", key(2, 3, 7000), 0));
            batch.add(new Mutation.Opened("a", key(1, 4, 7001), 0)); // h4 has no LID yet
            batch.add(new Mutation.Opened("a", new ConnectionKey("10.0.0.1", 7002, "10.9.9.9", 5000,
                    Transport.TCP), 0)); // no host has this address, nor will
            BatchResult r;
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try {
                r = c.batch("", batch);
                c.connectionEvent("", new Mutation.Opened("a", key(3, 1, 7003), 0));
            } finally {
                System.setErr(err);
            }
            assertEquals(502, r.applied(), "every connection between known hosts is kept");
            assertEquals(1, r.rejected());
            assertTrue(r.firstRejection().contains("no topology host has address 10.9.9.9"), r.firstRejection());
            assertEquals(503, c.unroutedCount());
            assertEquals(503, c.connectionCount());
            assertEquals(503, c.status(false).unrouted());
            assertTrue(c.metrics().prometheus().contains("\nsaba_connections_unrouted 503\n"));
            assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertTrue(backend.configured().isEmpty(), "no route, no port: " + backend.configured());
            String said = log.toString(StandardCharsets.UTF_8);
            assertEquals(1, said.lines().filter(l -> l.contains("wait for a route")).count(),
                    "one line for 503 waiting connections, not one per event:\n" + said);

            c.connectionEvent("", new Mutation.Closed("a", key(3, 1, 7003), 0));
            assertEquals(502, c.unroutedCount(), "a waiting connection that closes stops waiting");

            subnet.sweep(); // the subnet manager's first sweep: LIDs, forwarding tables
            assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertEquals(0, c.unroutedCount());
            assertEquals(502, c.connectionCount());
            assertEquals(pathPorts(subnet, 1, 2, 2, 3, 1, 4), backend.configured().keySet(),
                    "every waiting connection took its ports");

            subnet.pullCable(); // the routes go away again: the connections wait, their ports are released
            assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertEquals(502, c.unroutedCount());
            assertTrue(backend.configured().isEmpty(), backend.configured().toString());
            subnet.sweep();
            assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertEquals(pathPorts(subnet, 1, 2, 2, 3, 1, 4), backend.configured().keySet());
        }
    }

    @Test
    void waitingConnectionsSurviveARestart(@TempDir Path dir) throws Exception {
        Subnet subnet = new Subnet();
        try (SabaController c = start(subnet, new DryRunBackend(false, 10), dir)) {
            c.register("", new Mutation.Register("a", "sort", "spark", "u", 0, ""));
            c.batch("", List.of(new Mutation.Opened("a", key(1, 2, 7000), 0),
                    new Mutation.Opened("a", key(1, 4, 7001), 0)));
            assertEquals(2, c.unroutedCount());
        }
        for (String journal : List.of("as written", "compacted")) {
            Subnet again = new Subnet();
            DryRunBackend backend = new DryRunBackend(false, 10);
            try (SabaController c = start(again, backend, dir)) {
                assertEquals(2, c.unroutedCount(), "restored from the journal " + journal + ", still waiting");
                again.sweep();
                assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(10)));
                assertEquals(pathPorts(again, 1, 2, 1, 4), backend.configured().keySet());
            }
        }
    }

    @Test
    void theMostThatMayWaitAreKeptAndNewOnesBeyondAreRefused() {
        Subnet subnet = new Subnet();
        ControllerState s = new ControllerState(subnet, new Allocator(new MinSlowdownSolver(), 8, 0.9), CATALOG,
                ports -> { }, 2);
        Mutation.Register reg = new Mutation.Register("a", "lr", "spark", "u", 0, "");
        s.check(reg, "");
        s.apply(reg, 0, 1);
        for (int i = 0; i < 2; i++) {
            Mutation m = new Mutation.Opened("a", key(1, 2, 7000 + i), 0);
            s.check(m, "");
            assertEquals(1, s.apply(m, 0, 1));
        }
        ControllerException full = assertThrows(ControllerException.class,
                () -> s.check(new Mutation.Opened("a", key(1, 3, 7100), 0), ""));
        assertEquals(ControllerException.Kind.FAILED_PRECONDITION, full.kind());
        assertTrue(full.getMessage().contains("2 connections already wait for routes (at most 2)"), full.getMessage());
        // a sync that adds waiting connections beyond the limit is refused whole; one listing those waiting is not
        Mutation.Sync more = new Mutation.Sync("a", List.of(key(1, 2, 7000), key(1, 2, 7001), key(2, 3, 7200)), 1);
        assertThrows(ControllerException.class, () -> s.check(more, ""));
        s.check(new Mutation.Sync("a", List.of(key(1, 2, 7000)), 1), "");
        assertEquals(2, s.refusedUnrouted());
        // a restore re-applies what was acknowledged once: nothing is refused for want of a route
        s.limitUnrouted(false);
        s.check(more, "");
        assertEquals(1, s.apply(more, 0, 1));
        assertEquals(3, s.unroutedCount());
        s.limitUnrouted(true);
        subnet.sweep();
        ControllerState.Rerouted r = s.reroute();
        assertEquals(new ControllerState.Rerouted(0, 3, 0), r);
        s.check(new Mutation.Opened("a", key(1, 3, 7100), 0), ""); // routed now: no limit applies
    }
}
