package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.saba.controller.StartupException;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 1: the same controller started twice on one journal. The second must be refused before it reads
 * (or compacts) the journal or tells the fabric anything, naming the holder, so that the first keeps every write it
 * acknowledges. And a controller that cannot bind its port must fail before it replays or pushes.
 */
class SecondInstanceTest {
    @Test
    void aSecondControllerOnTheSameJournalIsRefusedAndTheFirstLosesNothing(@TempDir Path journal) throws Exception {
        try (EmbeddedController first = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20).build()) {
            InetSocketAddress at = first.start();
            ManagedChannel ch = Fixtures.channel(first);
            var stub = Fixtures.stub(ch);
            stub.register(Fixtures.register("a", "lr"));
            stub.connectionOpened(Fixtures.event("a", Fixtures.conn(1, 100, 2, 80), 0));
            Fixtures.quiesce(first);

            // the same command a second time: same journal, same port
            DryRunBackend secondFabric = new DryRunBackend(false, 1000);
            EmbeddedController second = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20).listen(at)
                    .backend(secondFabric, true).build();
            StartupException refused = assertThrows(StartupException.class, second::start);
            second.close();
            assertTrue(refused.getMessage().contains(journal.toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains("pid " + ProcessHandle.current().pid()), refused.getMessage());
            assertTrue(refused.getMessage().contains(InetAddress.getLocalHost().getHostName()), refused.getMessage());
            assertEquals(0, secondFabric.pushes(), "the refused controller told the fabric nothing");

            // the first keeps acknowledging writes; every one must survive its restart
            for (int i = 0; i < 10; i++) {
                stub.connectionOpened(Fixtures.event("a", Fixtures.conn(1, 200 + i, 3, 80), 0));
            }
            ch.shutdownNow();
        }
        try (EmbeddedController again = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20).build()) {
            again.start();
            assertEquals(11, again.controller().connectionCount(), "every acknowledged connection was kept");
        }
    }

    @Test
    void aControllerWhosePortIsTakenFailsBeforeItReplaysOrPushes(@TempDir Path journal) throws Exception {
        try (EmbeddedController c = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20).build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            var stub = Fixtures.stub(ch);
            stub.register(Fixtures.register("a", "lr"));
            stub.connectionOpened(Fixtures.event("a", Fixtures.conn(1, 100, 2, 80), 0));
            // a deregistered application: compaction would drop its records, so a replay would rewrite the file
            stub.register(Fixtures.register("gone", "sort"));
            stub.deregister(io.saba.proto.v1.DeregisterRequest.newBuilder().setAppId("gone").build());
            ch.shutdownNow();
        }
        byte[] kept = Files.readAllBytes(journal.resolve("journal.log"));
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            DryRunBackend fabric = new DryRunBackend(false, 1000);
            EmbeddedController c = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20)
                    .listen(new InetSocketAddress("127.0.0.1", taken.getLocalPort())).backend(fabric, true).build();
            StartupException e = assertThrows(StartupException.class, c::start);
            c.close();
            assertTrue(e.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), e.getMessage());
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            assertEquals(0, fabric.pushes(), "nothing pushed before the port was bound");
            assertArrayEquals(kept, Files.readAllBytes(journal.resolve("journal.log")), "the journal was not touched");
        }
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            EmbeddedController c = Fixtures.builder().journal(journal, FsyncPolicy.ALWAYS, 20)
                    .http(new InetSocketAddress("127.0.0.1", taken.getLocalPort())).build();
            StartupException e = assertThrows(StartupException.class, c::start);
            c.close();
            assertTrue(e.getMessage().contains("HTTP") && e.getMessage().contains("in use"), e.getMessage());
            assertArrayEquals(kept, Files.readAllBytes(journal.resolve("journal.log")), "the journal was not touched");
        }
    }
}
