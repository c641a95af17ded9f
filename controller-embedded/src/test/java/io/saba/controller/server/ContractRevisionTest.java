package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.proto.v1.rev1.AppStatus;
import io.saba.proto.v1.rev1.BatchedEvent;
import io.saba.proto.v1.rev1.ConnectionBatch;
import io.saba.proto.v1.rev1.ControllerGrpc;
import io.saba.proto.v1.rev1.EventAck;
import io.saba.proto.v1.rev1.HeartbeatRequest;
import io.saba.proto.v1.rev1.HeartbeatResponse;
import io.saba.proto.v1.rev1.RegisterRequest;
import io.saba.proto.v1.rev1.RegisterResponse;
import io.saba.proto.v1.rev1.StatusRequest;
import io.saba.proto.v1.rev1.StatusResponse;
import io.saba.proto.v1.rev1.SyncRequest;
import io.saba.wire.Contract;
import io.saba.wire.SignalsProto;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Revision 2 of saba.v1 (work signals) against revision 1, both ways, with revision 1's own generated code
 * (src/test/proto: the contract as released before signals, under other Java names): an old client keeps working
 * with this controller, and the new client keeps working with an old controller, sending it no signals.
 *
 * <p>The old controller here is a stand-in served from revision 1's generated base class on loopback gRPC (the
 * released controller's own classes would clash with this build's on one class path). What it proves is what the
 * wire does: revision 1's parser meets revision 2's fields.
 */
class ContractRevisionTest {
    @Test
    void anOldClientKeepsWorkingWithThisController() throws Exception {
        try (EmbeddedController c = Fixtures.builder().build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                // a deadline per call (a stub's deadline counts from the stub's creation)
                java.util.function.Supplier<ControllerGrpc.ControllerBlockingStub> old =
                        () -> ControllerGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS);
                RegisterResponse r = old.get().register(RegisterRequest.newBuilder().setAppId("old-app").setWorkload("lr")
                        .setFramework("spark").build());
                assertTrue(r.getLeaseMillis() > 0);
                assertFalse(r.getUnknownFields().asMap().isEmpty(), "it got the revision field and skipped it");
                EventAck ack = old.get().reportConnections(ConnectionBatch.newBuilder().addEvents(BatchedEvent.newBuilder()
                        .setOpen(true).setEvent(io.saba.proto.v1.rev1.ConnectionEvent.newBuilder().setAppId("old-app")
                                .setConnection(io.saba.proto.v1.rev1.Connection.parseFrom(
                                        Fixtures.conn(1, 40_000, 2, 7337).toByteArray())).setSeq(1))).build());
                assertEquals(1, ack.getApplied());
                HeartbeatResponse hb = old.get().heartbeat(HeartbeatRequest.newBuilder().setAppId("old-app").build());
                assertEquals(r.getLevel(), hb.getLevel());
                StatusResponse s = old.get().status(StatusRequest.getDefaultInstance());
                AppStatus a = s.getApps(0);
                assertEquals("old-app", a.getAppId());
                assertEquals(1, a.getConnections());
                assertTrue(c.controller().status(false).signals().isEmpty(), "no signals, nothing kept");
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    void theNewClientKeepsWorkingWithAnOldControllerAndSendsItNoSignals() throws Exception {
        OldController old = new OldController();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(old).build()
                .start();
        String target = "127.0.0.1:" + server.getPort();
        try (SabaClient client = SabaClient.connect(ClientConfig.defaults(target))) {
            SabaApplication app = client.register(new AppSpec("new-app", "lr", "spark", "u", 0));
            assertEquals(3, app.assigned().get(30, TimeUnit.SECONDS), "the old controller's level");
            assertEquals(Contract.REVISION, old.clientRevision.get(), "the client said its revision");
            assertFalse(client.controllerTakesSignals(), "a revision-1 controller answers no revision");
            app.report(WorkSignalsTest.stage(1));
            app.connectionOpened(new InetSocketAddress("10.0.0.1", 40_000), new InetSocketAddress("10.0.0.2", 7337),
                    Transport.TCP);
            await("the connection event at the old controller").atMost(Fixtures.PATIENCE)
                    .until(() -> old.events.get() == 1);
            assertEquals(1, client.droppedSignals(), "not sent");
            assertEquals(0, old.batchesWithUnknownFields.size());
            assertTrue(client.controllerReachable());
            assertEquals(0, client.outageWarnings());

            // and had signals been sent, revision 1's parser skips them and applies the batch's events
            ManagedChannel ch = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forTarget(target)
                    .usePlaintext().build();
            try {
                io.saba.proto.v1.EventAck ack = io.saba.proto.v1.ControllerGrpc.newBlockingStub(ch)
                        .withDeadlineAfter(30, TimeUnit.SECONDS).reportConnections(io.saba.proto.v1.ConnectionBatch
                                .newBuilder().addEvents(io.saba.proto.v1.BatchedEvent.newBuilder().setOpen(true)
                                        .setEvent(Fixtures.event("new-app", Fixtures.conn(1, 40_001, 2, 7337), 9)))
                                .addSignals(SignalsProto.toProto("new-app", WorkSignalsTest.stage(2))).build());
                assertEquals(1, ack.getApplied());
                assertEquals(0, ack.getSignalsStored(), "an old controller keeps none");
                assertEquals(List.of(2), old.batchesWithUnknownFields, "field 2, signals, skipped");
            } finally {
                ch.shutdownNow();
            }
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClientThatRegistersNothingLearnsFromItsFirstBatchThatAnOldControllerKeepsNoSignals() throws Exception {
        OldController old = new OldController();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(old).build()
                .start();
        try (SabaClient taskManager = SabaClient.connect(ClientConfig.defaults("127.0.0.1:" + server.getPort()))) {
            taskManager.report("job-1", WorkSignalsTest.stage(1));
            await("the first batch answered").atMost(Fixtures.PATIENCE).until(() -> old.batches.get() == 1
                    && taskManager.droppedSignals() == 1);
            assertEquals(List.of(2), old.batchesWithUnknownFields, "sent once, skipped unread");
            taskManager.report("job-1", WorkSignalsTest.stage(2));
            await("the next one dropped").atMost(Fixtures.PATIENCE).until(() -> taskManager.droppedSignals() == 2);
            assertEquals(1, old.batches.get(), "no further batch");
            assertFalse(taskManager.controllerTakesSignals());
            assertTrue(taskManager.controllerReachable());
        } finally {
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** Revision 1's service: answers registrations with level 3 and counts the events it is sent. */
    private static final class OldController extends ControllerGrpc.ControllerImplBase {
        final AtomicInteger events = new AtomicInteger();
        final AtomicInteger batches = new AtomicInteger();
        final AtomicInteger clientRevision = new AtomicInteger(-1);
        final List<Integer> batchesWithUnknownFields = new CopyOnWriteArrayList<>();

        @Override
        public void register(RegisterRequest r, StreamObserver<RegisterResponse> out) {
            // revision 1 does not know field 6; read it from the unknown fields to check the client sent it
            var f = r.getUnknownFields().getField(6);
            clientRevision.set(f == null || f.getVarintList().isEmpty() ? 0 : f.getVarintList().get(0).intValue());
            out.onNext(RegisterResponse.newBuilder().setLevel(3).setLeaseMillis(30_000).build());
            out.onCompleted();
        }

        @Override
        public void heartbeat(HeartbeatRequest r, StreamObserver<HeartbeatResponse> out) {
            out.onNext(HeartbeatResponse.newBuilder().setLevel(3).setLeaseMillis(30_000).build());
            out.onCompleted();
        }

        @Override
        public void reportConnections(ConnectionBatch b, StreamObserver<EventAck> out) {
            events.addAndGet(b.getEventsCount());
            batches.incrementAndGet();
            batchesWithUnknownFields.addAll(b.getUnknownFields().asMap().keySet());
            out.onNext(EventAck.newBuilder().setApplied(b.getEventsCount()).build());
            out.onCompleted();
        }

        @Override
        public void syncConnections(SyncRequest s, StreamObserver<EventAck> out) {
            out.onNext(EventAck.newBuilder().setApplied(s.getOpenCount()).build());
            out.onCompleted();
        }

        @Override
        public void status(StatusRequest r, StreamObserver<StatusResponse> out) {
            out.onNext(StatusResponse.getDefaultInstance());
            out.onCompleted();
        }
    }
}
