package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.Transport;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.topology.PathResolver;
import io.saba.core.alloc.PortId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A resolver whose paths change under the controller (a discovered fabric re-routing). */
class RerouteTest {
    /** Two hosts joined through spine "a" or, after {@link #flip}, spine "b". */
    static final class Flipping implements PathResolver {
        private volatile boolean viaB;
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

        void flip() {
            viaB = !viaB;
            listeners.forEach(Runnable::run);
        }

        @Override
        public Optional<String> hostOf(String ip) {
            return Optional.ofNullable(Map.of("10.0.0.1", "h1", "10.0.0.2", "h2").get(ip));
        }

        @Override
        public List<PortId> path(String src, String dst) {
            return src.equals(dst) ? List.of()
                    : List.of(new PortId("leaf-" + src, 9), new PortId(viaB ? "b" : "a", 1), new PortId("leaf-" + dst, 1));
        }

        @Override
        public int queues(PortId port) {
            return 4;
        }

        @Override
        public int minQueues() {
            return 4;
        }

        @Override
        public void onPathsChanged(Runnable listener) {
            listeners.add(listener);
        }
    }

    @Test
    void aChangedPathMovesTheAllocationAndReleasesTheOldPort() throws Exception {
        Flipping paths = new Flipping();
        DryRunBackend backend = new DryRunBackend(false, 1000);
        try (EmbeddedController c = EmbeddedController.builder().paths(paths).table(Fixtures.catalog())
                .backend(backend, true).build()) {
            c.start();
            c.controller().register("", new io.saba.controller.state.Mutation.Register("app", "lr", "t", "u", 0, ""));
            c.controller().connectionEvent("", new io.saba.controller.state.Mutation.Opened("app",
                    new io.saba.wire.ConnectionKey("10.0.0.1", 1, "10.0.0.2", 2,
                            Transport.TCP), 0));
            assertTrue(c.controller().recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertTrue(backend.configured().containsKey(new PortId("a", 1)));
            paths.flip();
            assertTrue(c.controller().recomputer().awaitQuiescent(Duration.ofSeconds(10)));
            assertEquals(java.util.Set.of(new PortId("leaf-h1", 9), new PortId("b", 1), new PortId("leaf-h2", 1)),
                    backend.configured().keySet(), "the connection now crosses b; a was released");
        }
    }
}
