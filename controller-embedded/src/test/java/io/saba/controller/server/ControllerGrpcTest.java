package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static io.saba.controller.server.Fixtures.conn;
import static io.saba.controller.server.Fixtures.event;
import static io.saba.controller.server.Fixtures.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AllocationChange;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.DeregisterRequest;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.EventAck;
import io.saba.proto.v1.HeartbeatRequest;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.RegisterResponse;
import io.saba.proto.v1.ReloadTableRequest;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.StatusResponse;
import io.saba.proto.v1.SyncRequest;
import io.saba.proto.v1.WatchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The saba.v1 contract against a real controller over loopback gRPC. */
class ControllerGrpcTest {
    private EmbeddedController controller;
    private ManagedChannel channel;
    private ControllerGrpc.ControllerBlockingStub stub;

    @BeforeEach
    void start() {
        controller = Fixtures.builder().build();
        controller.start();
        channel = Fixtures.channel(controller);
        stub = Fixtures.stub(channel);
    }

    @AfterEach
    void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        controller.close();
    }

    private DryRunBackend backend() {
        return (DryRunBackend) controller.backend();
    }

    @Test
    void registerAssignsALevelPerWorkloadAndALease() {
        RegisterResponse first = stub.register(register("a", "lr"));
        assertTrue(first.getLevel() >= 1, "level 0 is the default class, never assigned");
        assertEquals(30_000, first.getLeaseMillis());
        assertTrue(first.getWorkloadKnown());
        stub.register(register("b", "lr"));
        stub.register(register("c", "wc"));
        // read the current levels by heartbeat: a running workload keeps its first level when others arrive
        int a = level("a");
        int b = level("b");
        int c = level("c");
        assertEquals(a, b, "applications of one workload share a level");
        assertNotEquals(a, c);
        assertEquals(first.getLevel(), a, "wc's arrival did not renumber lr");
        assertEquals(a, stub.register(register("a", "lr")).getLevel(), "registering again is idempotent");
        assertEquals(3, stub.status(StatusRequest.getDefaultInstance()).getAppsCount());
    }

    @Test
    void unknownWorkloadGetsTheDefaultModel() {
        RegisterResponse r = stub.register(register("x", "never-profiled"));
        assertFalse(r.getWorkloadKnown());
        assertTrue(r.getLevel() >= 1);
    }

    @Test
    void anEmptyWorkloadIsTheDefaultWorkloadAndOtherApplicationsKeepTheirLevels() {
        stub.register(register("a", "lr"));
        // Flink's documented default (saba.workload unset) reaches the controller as "": once an INTERNAL error
        // that left the workload in the plan, so every later registration failed and every level fell to 0
        for (String blank : new String[] {"", "  "}) {
            RegisterResponse r = stub.register(register("blank" + blank.length(), blank));
            assertTrue(r.getLevel() >= 1, "a Saba level for '" + blank + "': " + r.getLevel());
            assertFalse(r.getWorkloadKnown(), "the default model");
        }
        RegisterResponse b = stub.register(register("b", "wc"));
        assertTrue(b.getLevel() >= 1);
        assertTrue(level("a") >= 1, "the others keep their levels");
        StatusResponse s = status();
        assertEquals(List.of("default", "default"), s.getAppsList().stream()
                .filter(a -> a.getAppId().startsWith("blank")).map(a -> a.getWorkload()).toList(),
                "shown as the workload every engine uses for 'none'");
        assertEquals(level("blank0"), level("blank2"), "one workload, one level");
    }

    @Test
    void connectionsProgramEveryPortOnTheirPath() throws Exception {
        stub.register(register("a", "lr"));
        stub.register(register("b", "wc"));
        assertEquals(1, stub.connectionOpened(event("a", conn(1, 5000, 2, 6000), 0)).getApplied());
        assertEquals(1, stub.connectionOpened(event("b", conn(3, 5000, 2, 6001), 0)).getApplied());
        Fixtures.quiesce(controller);
        Map<PortId, PortAllocation> ports = backend().configured();
        PortAllocation toH2 = ports.get(new PortId("s0", 2));
        assertEquals(1, ports.size(), "both paths end in s0's port toward h2, the only switch port they cross");
        assertEquals(Map.of("a", toH2.appWeights().get("a"), "b", toH2.appWeights().get("b")), toH2.appWeights());
        assertTrue(toH2.appWeights().get("a") > toH2.appWeights().get("b"), "the sensitive lr gets more");
        assertEquals(1.0, Arrays.stream(toH2.queueWeights()).sum(), 1e-9, "C_Saba plus the default queue");
        assertEquals(0.1, toH2.queueWeights()[0], 1e-9, "the default queue keeps 1 - C_Saba");
        double predicted = Fixtures.catalog().modelOf("lr").slowdown(toH2.appWeights().get("a"))
                + Fixtures.catalog().modelOf("wc").slowdown(toH2.appWeights().get("b"));
        assertEquals(predicted, toH2.predictedSlowdown(), 1e-9, "the port carries the objective its weights predict");
        assertEquals(predicted, stub.status(StatusRequest.getDefaultInstance()).getPortsList().stream()
                .filter(p -> p.getNode().equals("s0") && p.getPort() == 2).findFirst().orElseThrow()
                .getPredictedSlowdown(), 1e-9, "and the status says it");
        // the dry run recorded exactly what the controller holds
        assertEquals(controller.controller().recomputer().current().keySet(), ports.keySet());

        stub.connectionClosed(event("a", conn(1, 5000, 2, 6000), 0));
        stub.connectionClosed(event("b", conn(3, 5000, 2, 6001), 0));
        Fixtures.quiesce(controller);
        assertTrue(backend().configured().isEmpty(), "ports nobody crosses are released");
    }

    @Test
    void duplicatedAndReorderedEventsAreIdempotent() throws Exception {
        stub.register(register("a", "lr"));
        Connection c = conn(1, 5000, 2, 6000);
        assertEquals(1, stub.connectionOpened(event("a", c, 5)).getApplied());
        assertEquals(0, stub.connectionOpened(event("a", c, 5)).getApplied(), "duplicate");
        assertEquals(0, stub.connectionOpened(event("a", c, 4)).getApplied(), "older than seen");
        // close (seq 7) overtakes a retried open (seq 6): the connection must stay closed
        assertEquals(1, stub.connectionClosed(event("a", c, 7)).getApplied());
        assertEquals(0, stub.connectionOpened(event("a", c, 6)).getApplied(), "reordered open is stale");
        assertEquals(0, stub.connectionClosed(event("a", c, 7)).getApplied(), "duplicate close");
        assertEquals(0, stub.connectionClosed(event("a", conn(4, 1, 5, 2), 8)).getApplied(),
                "closing an unknown connection is harmless");
        assertEquals(0, status().getApps(0).getConnections());
        // without sequence numbers duplicates are still harmless
        assertEquals(1, stub.connectionOpened(event("a", c, 0)).getApplied());
        assertEquals(0, stub.connectionOpened(event("a", c, 0)).getApplied());
        Fixtures.quiesce(controller);
        assertEquals(1, backend().configured().size());
    }

    @Test
    void malformedRequestsGetPreciseErrorsAndChangeNothing() throws Exception {
        stub.register(register("a", "lr"));
        stub.connectionOpened(event("a", conn(1, 5000, 2, 6000), 0));
        Fixtures.quiesce(controller);
        StatusResponse before = status();
        long pushes = backend().pushes();

        expect(Status.Code.NOT_FOUND, "application ghost is not registered",
                () -> stub.connectionOpened(event("ghost", conn(1, 1, 2, 2), 0)));
        expect(Status.Code.NOT_FOUND, "application ghost is not registered",
                () -> stub.heartbeat(HeartbeatRequest.newBuilder().setAppId("ghost").build()));
        expect(Status.Code.INVALID_ARGUMENT, "no topology host has address 10.9.9.9",
                () -> stub.connectionOpened(event("a", withSrc("10.9.9.9", 80), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "is not a literal IP address",
                () -> stub.connectionOpened(event("a", withSrc("example.org", 80), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "not a valid IPv4 address",
                () -> stub.connectionOpened(event("a", withSrc("10.0.0.300", 80), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "port 0 is outside 1..65535",
                () -> stub.connectionOpened(event("a", withSrc("10.0.0.1", 0), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "port 70000 is outside 1..65535",
                () -> stub.connectionOpened(event("a", withSrc("10.0.0.1", 70000), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "connection needs both src and dst",
                () -> stub.connectionOpened(event("a", Connection.getDefaultInstance(), 0)));
        expect(Status.Code.INVALID_ARGUMENT, "app_id is 300 characters long; at most 256 allowed",
                () -> stub.register(register("x".repeat(300), "lr")));
        expect(Status.Code.INVALID_ARGUMENT, "app_id is empty", () -> stub.register(register("", "lr")));
        expect(Status.Code.INVALID_ARGUMENT, "workload is 200 characters long",
                () -> stub.register(register("b", "w".repeat(200))));
        expect(Status.Code.INVALID_ARGUMENT, "app_id contains a control character",
                () -> stub.register(register("a\nb", "lr")));
        expect(Status.Code.INVALID_ARGUMENT, "workload contains a control character at index 2",
                () -> stub.register(register("c", "lr\u0000")));
        ConnectionBatch.Builder huge = ConnectionBatch.newBuilder();
        for (int i = 0; i < 10_001; i++) {
            huge.addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event("a", conn(1, 1 + i % 60000, 2, 2), 0)));
        }
        expect(Status.Code.INVALID_ARGUMENT, "batch has 10001 events; at most 10000 allowed",
                () -> stub.reportConnections(huge.build()));
        expect(Status.Code.INVALID_ARGUMENT, "no topology host has address 10.9.9.9",
                () -> stub.syncConnections(SyncRequest.newBuilder().setAppId("a")
                        .addOpen(withSrc("10.9.9.9", 80)).build()));
        expect(Status.Code.INVALID_ARGUMENT, "sensitivity table rejected",
                () -> stub.reloadTable(ReloadTableRequest.newBuilder().setTableJson("{not json").build()));

        Fixtures.quiesce(controller);
        assertEquals(withoutLease(before).getAppsList(), withoutLease(status()).getAppsList(),
                "applications unchanged");
        assertEquals(before.getPortsList(), status().getPortsList(), "ports unchanged");
        assertEquals(before.getAllocationVersion(), status().getAllocationVersion(), "nothing recomputed");
        assertEquals(pushes, backend().pushes(), "nothing pushed to the fabric");
    }

    private static io.saba.proto.v1.AppStatus noLease(io.saba.proto.v1.AppStatus a) {
        return a.toBuilder().clearLeaseRemainingMillis().build();
    }

    private static StatusResponse withoutLease(StatusResponse s) {
        StatusResponse.Builder b = s.toBuilder().clearApps();
        s.getAppsList().forEach(a -> b.addApps(noLease(a)));
        return b.build();
    }

    @Test
    void aBatchSkipsInvalidEventsAndNamesUnknownApplications() {
        stub.register(register("a", "lr"));
        EventAck ack = stub.reportConnections(ConnectionBatch.newBuilder()
                .addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event("a", conn(1, 1, 2, 2), 1)))
                .addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event("a", withSrc("10.9.9.9", 1), 2)))
                .addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event("gone", conn(1, 1, 2, 2), 3)))
                .addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event("a", conn(3, 1, 2, 2), 4)))
                .build());
        assertEquals(2, ack.getApplied());
        assertEquals(2, ack.getRejected());
        assertTrue(ack.getFirstRejection().contains("10.9.9.9"), ack.getFirstRejection());
        assertEquals(List.of("gone"), ack.getUnknownAppsList());
    }

    @Test
    void aSyncReplacesTheSetButRespectsNewerEvents() {
        stub.register(register("a", "lr"));
        stub.connectionOpened(event("a", conn(1, 1, 2, 2), 1));
        stub.connectionOpened(event("a", conn(1, 3, 2, 4), 2));
        stub.connectionClosed(event("a", conn(5, 5, 6, 6), 20)); // newer than the sync below
        stub.syncConnections(SyncRequest.newBuilder().setAppId("a").setSeq(10)
                .addOpen(conn(1, 3, 2, 4)).addOpen(conn(3, 1, 4, 1)).addOpen(conn(5, 5, 6, 6)).build());
        StatusResponse s = stub.status(StatusRequest.newBuilder().setIncludeConnections(true).build());
        assertEquals(List.of(conn(1, 3, 2, 4), conn(3, 1, 4, 1)), s.getApps(0).getOpenList(),
                "1:1 dropped, 3:1 added, 5:5 stays closed because its close (seq 20) is newer than the sync");
    }

    @Test
    void aNewAttemptReplacesTheOldOnesConnectionsAndAnOlderOneIsRefused() {
        stub.register(register("a", "lr").toBuilder().setAttempt(1).build());
        stub.connectionOpened(event("a", conn(1, 1, 2, 2), 0));
        stub.register(register("a", "lr").toBuilder().setAttempt(2).build());
        assertEquals(0, status().getApps(0).getConnections());
        assertEquals(2, status().getApps(0).getAttempt());
        expect(Status.Code.FAILED_PRECONDITION, "attempt 1 is older than the registered attempt 2",
                () -> stub.register(register("a", "lr").toBuilder().setAttempt(1).build()));
    }

    @Test
    void leasesExpireWithoutHeartbeatsAndReleaseTheirPorts() throws Exception {
        controller.close();
        // a lease 30× the heartbeat period, so a loaded machine does not expire the heartbeating application
        controller = Fixtures.builder().leaseTimeout(Duration.ofMillis(1500)).build();
        controller.start();
        channel.shutdownNow();
        channel = Fixtures.channel(controller);
        stub = Fixtures.stub(channel);

        stub.register(register("kept", "lr"));
        stub.register(register("dies", "wc"));
        stub.connectionOpened(event("kept", conn(1, 1, 2, 2), 0));
        stub.connectionOpened(event("dies", conn(3, 1, 4, 2), 0));
        // "kept" heartbeats throughout; "dies" goes silent
        ControllerGrpc.ControllerBlockingStub beat = ControllerGrpc.newBlockingStub(channel);
        Thread heart = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    beat.withDeadlineAfter(5, TimeUnit.SECONDS)
                            .heartbeat(HeartbeatRequest.newBuilder().setAppId("kept").build());
                    Thread.sleep(40);
                } catch (InterruptedException | StatusRuntimeException e) {
                    return;
                }
            }
        });
        heart.start();
        try {
            leaseAssertions();
        } finally {
            heart.interrupt();
            heart.join();
        }
    }

    private void leaseAssertions() throws Exception {
        await("'dies' expired").atMost(Fixtures.PATIENCE).until(() -> status().getAppsCount() == 1);
        assertEquals(List.of("kept"), Fixtures.ids(status().getAppsList()));
        Fixtures.quiesce(controller);
        assertEquals(java.util.Set.of(new PortId("s0", 2)), backend().configured().keySet(),
                "the expired application's port s0:4 was released");
        assertEquals(1, controller.controller().metrics().leaseExpirations.sum());
        expect(Status.Code.NOT_FOUND, "lease expired",
                () -> stub.heartbeat(HeartbeatRequest.newBuilder().setAppId("dies").build()));
    }

    @Test
    void deregisterRemovesTheApplicationAndIsHarmlessTwice() throws Exception {
        stub.register(register("a", "lr"));
        stub.connectionOpened(event("a", conn(1, 1, 2, 2), 0));
        assertTrue(stub.deregister(DeregisterRequest.newBuilder().setAppId("a").build()).getWasRegistered());
        assertFalse(stub.deregister(DeregisterRequest.newBuilder().setAppId("a").build()).getWasRegistered());
        Fixtures.quiesce(controller);
        assertEquals(0, status().getAppsCount());
        assertTrue(backend().configured().isEmpty());
    }

    @Test
    void watchStreamsAllocationChanges() throws Exception {
        Iterator<AllocationChange> changes = ControllerGrpc.newBlockingStub(channel)
                .withDeadlineAfter(20, TimeUnit.SECONDS).watch(WatchRequest.getDefaultInstance());
        // the watch is registered asynchronously: keep producing changes until one arrives
        stub.register(register("a", "lr"));
        Thread producer = new Thread(() -> {
            for (int i = 1; i < 200 && !Thread.currentThread().isInterrupted(); i++) {
                try {
                    stub.connectionOpened(event("a", conn(1, i, 2 + i % 3, 2), 0));
                    Thread.sleep(20);
                } catch (InterruptedException | StatusRuntimeException e) {
                    return;
                }
            }
        });
        producer.start();
        AllocationChange first = changes.next();
        producer.interrupt();
        producer.join();
        assertTrue(first.getAllocationVersion() >= 1);
        assertFalse(first.getChangedList().isEmpty());
        assertEquals("s0", first.getChanged(0).getNode());
    }

    @Test
    void reloadingTheTableChangesModelsWithoutARestart() throws Exception {
        stub.register(register("a", "new-workload"));
        assertFalse(status().getApps(0).getWorkloadKnown());
        String table = Files.readString(Path.of("../examples/sensitivity-table.json"))
                .replace("\"gbt\"", "\"new-workload\"");
        assertTrue(stub.reloadTable(ReloadTableRequest.newBuilder().setTableJson(table).build()).getWorkloads() > 0);
        assertTrue(status().getApps(0).getWorkloadKnown());
        assertEquals(1, controller.controller().metrics().tableReloads.sum());
    }

    private int level(String app) {
        return stub.heartbeat(HeartbeatRequest.newBuilder().setAppId(app).build()).getLevel();
    }

    private StatusResponse status() {
        return stub.status(StatusRequest.getDefaultInstance());
    }

    private static Connection withSrc(String ip, int port) {
        return conn(1, 1, 2, 2).toBuilder().setSrc(Endpoint.newBuilder().setIp(ip).setPort(port)).build();
    }

    static void expect(Status.Code code, String fragment, Runnable call) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
        assertEquals(code, e.getStatus().getCode(), e.getStatus().toString());
        assertTrue(e.getStatus().getDescription() != null && e.getStatus().getDescription().contains(fragment),
                "expected '" + fragment + "' in: " + e.getStatus().getDescription());
    }
}
