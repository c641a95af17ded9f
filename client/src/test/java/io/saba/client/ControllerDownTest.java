package io.saba.client;

import io.saba.wire.Transport;
import io.saba.wire.DscpMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** With no controller at all, the client must not block, fail or slow its caller. */
class ControllerDownTest {
    /** A loopback port nobody listens on (bound, then released). */
    private static int deadPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void registerReturnsTheDefaultLevelAtOnceAndTheOutageIsLoggedOnce() throws Exception {
        ClientConfig cfg = ClientConfig.defaults("127.0.0.1:" + deadPort())
                .withBackoff(Duration.ofMillis(10), Duration.ofMillis(40));
        try (SabaClient client = SabaClient.connect(cfg)) {
            SabaApplication app = client.register(new AppSpec("app-1", "lr", "spark", "alice", 0));
            assertEquals(0, app.level(), "the default class until the controller answers");
            // the registration attempt fails fast (connection refused) and completes the future with level 0
            assertEquals(0, app.assigned().get(10, TimeUnit.SECONDS));
            for (int i = 0; i < 1000; i++) {
                app.connectionOpened(new InetSocketAddress("10.0.0.1", 1000 + i),
                        new InetSocketAddress("10.0.0.2", 80), Transport.TCP);
            }
            assertEquals(1000, app.openConnections(), "the mirror keeps what must be replayed later");
            SabaApplication second = client.register(new AppSpec("app-2", "wc", "spark", "bob", 0));
            assertTrue(second.assigned().isDone(), "while the controller is known down, register answers at once");
            assertEquals(0, second.assigned().get());
            // let the sender retry many times: still exactly one warning for this outage
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            while (System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertFalse(client.controllerReachable());
            assertEquals(1, client.outageWarnings());
        }
    }

    @Test
    void aFullQueueDropsEventsInsteadOfBlocking() throws Exception {
        ClientConfig cfg = ClientConfig.defaults("127.0.0.1:" + deadPort()).withQueueCapacity(4)
                .withBackoff(Duration.ofSeconds(5), Duration.ofSeconds(5));
        try (SabaClient client = SabaClient.connect(cfg)) {
            SabaApplication app = client.register(new AppSpec("app", "lr", "", "", 0));
            for (int i = 0; i < 100; i++) {
                app.connectionOpened(new InetSocketAddress("10.0.0.1", 1 + i), new InetSocketAddress("10.0.0.2", 80),
                        Transport.TCP);
            }
            assertTrue(client.droppedEvents() > 0);
            assertEquals(100, app.openConnections(), "dropped events stay in the mirror for the re-sync");
        }
    }

    @Test
    void tagsSocketsWithTheLevelsTos() throws Exception {
        try (java.nio.channels.SocketChannel ch = java.nio.channels.SocketChannel.open();
             java.net.Socket s = new java.net.Socket()) {
            int tos = DscpMap.classSelectors().tos(5);
            assertTrue(SocketTagging.tag(ch, tos));
            assertEquals(tos, (int) ch.getOption(java.net.StandardSocketOptions.IP_TOS));
            assertTrue(SocketTagging.tag(s, tos));
            assertEquals(tos, (int) s.getOption(java.net.StandardSocketOptions.IP_TOS));
            int[] seen = new int[1];
            assertTrue(SocketTagging.tag(t -> seen[0] = t, tos, "custom channel"));
            assertEquals(tos, seen[0]);
            assertFalse(SocketTagging.tag(t -> {
                throw new java.io.IOException("refused");
            }, tos, "refusing channel"), "failures are reported, not thrown");
        }
    }
}
