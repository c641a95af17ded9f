package io.saba.controller.server;

import io.saba.wire.Transport;
import io.saba.controller.SabaController;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.wire.ConnectionKey;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A burst of thousands of events costs a bounded number of recomputations, and the latest state wins. */
class CoalescingTest {
    /** A backend that holds its first push until released, so the burst lands while a round is running. */
    static final class GatedBackend implements FabricBackend {
        final DryRunBackend inner = new DryRunBackend(false, 1_000_000);
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);

        @Override
        public String name() {
            return "gated";
        }

        @Override
        public ApplyResult apply(Collection<PortAllocation> changed) {
            entered.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inner.apply(changed);
        }

        @Override
        public ApplyResult release(Set<PortId> ports) {
            return inner.release(ports);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aBurstCostsABoundedNumberOfRoundsAndOnlyTheLatestStateIsPushed() throws Exception {
        GatedBackend backend = new GatedBackend();
        try (EmbeddedController c = Fixtures.builder().backend(backend, true).build()) {
            c.start();
            SabaController ctl = c.controller();
            ctl.register("", new Mutation.Register("a", "lr", "t", "u", 0, ""));
            ctl.register("", new Mutation.Register("b", "wc", "t", "u", 0, ""));
            ctl.connectionEvent("", new Mutation.Opened("a", key(1, 1, 2), 0));
            assertTrue(backend.entered.await(30, TimeUnit.SECONDS), "first round reached the backend");
            long roundsBefore = ctl.recomputer().rounds();
            // 5,000 events while the first round is stuck in the backend
            for (int i = 0; i < 2_500; i++) {
                ctl.connectionEvent("", new Mutation.Opened("b", key(1 + i % 7, 1000 + i, 8), 0));
                ctl.connectionEvent("", new Mutation.Closed("b", key(1 + i % 7, 1000 + i, 8), 0));
            }
            ctl.connectionEvent("", new Mutation.Opened("b", key(3, 9, 2), 0)); // the final state
            backend.gate.countDown();
            Fixtures.quiesce(c);
            long rounds = ctl.recomputer().rounds() - roundsBefore;
            assertTrue(rounds <= 2, "5,001 events cost " + rounds + " rounds");
            PortAllocation toH2 = backend.inner.configured().get(new PortId("s0", 2));
            assertEquals(Set.of("a", "b"), toH2.appWeights().keySet(), "latest state: a and b share s0:2");
            assertTrue(!backend.inner.configured().containsKey(new PortId("s0", 8)),
                    "s0:8 was only ever used transiently and was never pushed");
            List<DryRunBackend.Push> pushes = backend.inner.history();
            assertTrue(pushes.stream().noneMatch(p -> p.port().equals(new PortId("s0", 8))));
        }
    }

    private static ConnectionKey key(int src, int srcPort, int dst) {
        return new ConnectionKey("10.0.0." + src, srcPort, "10.0.0." + dst, 80, Transport.TCP);
    }
}
