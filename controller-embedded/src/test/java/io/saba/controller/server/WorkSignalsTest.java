package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.signals.SignalStore;
import io.saba.proto.v1.AppStatus;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.EventAck;
import io.saba.proto.v1.StatusRequest;
import io.saba.wire.SignalsProto;
import io.saba.wire.WorkSignals;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Work signals through a real controller on loopback gRPC: a client's reports are kept (the latest, bounded, and
 * their sum) and shown by the Status RPC, /status.json, /status and /metrics; signals the controller cannot take
 * are skipped and counted without failing the batch that carries them.
 */
class WorkSignalsTest {
    static WorkSignals stage(int id) {
        return new WorkSignals("stage " + id + ".0", "groupByKey at Job.java:" + id, 1_700_000_000_000L + id, 4,
                900, 2_000, 150, Map.of("shuffle_fetch_wait", 150L, "cpu", 1_700L),
                Map.of("shuffle_remote_read", 1_000_000L, "shuffle_write", 2_000_000L), Map.of("shuffle_remote_blocks",
                6L));
    }

    @Test
    void aClientsSignalsShowOnEveryStatusView() throws Exception {
        int n = SignalStore.KEEP + 8;
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication app = client.register(new AppSpec("app-1", "lr", "spark", "u", 0));
                app.assigned().get(30, TimeUnit.SECONDS);
                assertTrue(client.controllerTakesSignals(), "this controller says revision 2");
                for (int i = 1; i <= n; i++) {
                    app.report(stage(i));
                }
                await("all signals kept").atMost(Fixtures.PATIENCE).until(() -> reported(Fixtures.stub(ch)) == n);
                assertEquals(0, client.droppedSignals());

                AppStatus a = Fixtures.stub(ch).status(StatusRequest.newBuilder().setIncludeSignals(true).build()).getApps(0);
                assertEquals(SignalStore.KEEP, a.getSignalsCount(), "bounded: the latest units only");
                assertEquals("stage 9.0", a.getSignals(0).getUnit());
                assertEquals(stage(n), SignalsProto.fromProto(a.getSignals(SignalStore.KEEP - 1)));
                assertEquals(4L * n, a.getSignalsTotal().getTasks());
                assertEquals(1_000_000L * n, a.getSignalsTotal().getBytesOrThrow("shuffle_remote_read"));
                assertEquals(0, Fixtures.stub(ch).status(StatusRequest.getDefaultInstance()).getApps(0)
                        .getSignalsCount(), "signals only when asked for");

                String base = "http://127.0.0.1:" + c.httpAddress().getPort();
                JsonNode s = new ObjectMapper().readTree(get(base + "/status.json")).get("applications").get(0)
                        .get("signals");
                assertEquals(n, s.get("reported").asLong());
                assertEquals(0.075, s.get("network_wait_share").asDouble(), 1e-12);
                assertEquals(150L * n, s.get("total").get("network_wait_millis").asLong());
                assertEquals(2_000_000L * n, s.get("total").get("bytes").get("shuffle_write").asLong());
                assertEquals(SignalStore.KEEP, s.get("latest").size());
                assertEquals("stage " + n + ".0", s.get("latest").get(SignalStore.KEEP - 1).get("unit").asText());
                assertTrue(get(base + "/status").contains(n + " units, network wait 7.5 % of run time"));
                assertTrue(get(base + "/metrics").contains("saba_work_signals_total " + n));

                app.deregister();
                await("deregistered").atMost(Fixtures.PATIENCE).until(() -> c.controller().app("app-1") == null);
                assertTrue(c.controller().status(false).signals().isEmpty(), "signals go with the registration");
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    void signalsTheControllerCannotTakeAreSkippedAndCounted() throws Exception {
        try (EmbeddedController c = Fixtures.builder().tokens(Map.of("alice", "token-a", "bob", "token-b")).build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                Fixtures.stub(ch, "token-a").register(Fixtures.register("a", "lr"));
                io.saba.proto.v1.WorkSignals ok = SignalsProto.toProto("a", stage(1));
                EventAck ack = Fixtures.stub(ch, "token-a").reportConnections(ConnectionBatch.newBuilder()
                        .addEvents(BatchedEvent.newBuilder().setOpen(true)
                                .setEvent(Fixtures.event("a", Fixtures.conn(1, 40_000, 2, 7337), 1)))
                        .addSignals(ok)
                        .addSignals(ok.toBuilder().setAppId("ghost"))
                        .addSignals(ok.toBuilder().putBytes("Not A Kind", 1))
                        .build());
                assertEquals(1, ack.getApplied(), "the connection event");
                assertEquals(1, ack.getSignalsStored());
                assertEquals(2, ack.getRejected());
                assertTrue(ack.getFirstRejection().startsWith("work signals: bytes kind 'Not A Kind'"),
                        ack.getFirstRejection());
                assertEquals(List.of("ghost"), ack.getUnknownAppsList(), "the client registers it again");

                EventAck foreign = Fixtures.stub(ch, "token-b").reportConnections(ConnectionBatch.newBuilder().addSignals(ok).build());
                assertEquals(0, foreign.getSignalsStored());
                assertEquals(1, foreign.getRejected());
                assertEquals("application a belongs to another tenant", foreign.getFirstRejection());
                assertEquals(1, c.controller().status(false).signals().get("a").reported());
                assertFalse(foreign.getUnknownAppsList().contains("a"));
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    void aClientThatRegistersNothingReportsForItsTenantsApplications() throws Exception {
        // a Flink TaskManager: its tasks' signals belong to the job the JobManager's client registered
        try (EmbeddedController c = Fixtures.builder().tokens(Map.of("alice", "token-a", "bob", "token-b")).build()) {
            c.start();
            try (SabaClient jobManager = SabaClient.connect(ClientConfig.defaults(c.target()).withToken("token-a"));
                 SabaClient taskManager = SabaClient.connect(ClientConfig.defaults(c.target()).withToken("token-a"));
                 SabaClient stranger = SabaClient.connect(ClientConfig.defaults(c.target()).withToken("token-b"))) {
                jobManager.register(new AppSpec("job-1", "lr", "flink", "u", 0)).assigned().get(30, TimeUnit.SECONDS);
                assertFalse(taskManager.controllerTakesSignals(), "not known before an answer");
                taskManager.report("job-1", stage(1));
                taskManager.report("job-1", stage(2));
                // the controller keeps them before its answer reaches the client
                await("both kept, and the answer read").atMost(Fixtures.PATIENCE).until(() -> kept(c, "job-1") == 2
                        && taskManager.controllerTakesSignals());
                assertEquals(0, taskManager.droppedSignals());
                assertEquals(null, taskManager.application("job-1"), "it registered nothing");

                taskManager.report("ghost", stage(3)); // a job the controller does not know (yet, or any more)
                stranger.report("job-1", stage(4)); // another tenant's
                await("both skipped").atMost(Fixtures.PATIENCE).until(() -> taskManager.droppedSignals() == 1
                        && stranger.droppedSignals() == 1);
                assertEquals(2, kept(c, "job-1"));
                assertEquals(1, c.controller().appCount(), "the unknown application is not registered for it");
                assertFalse(stranger.controllerTakesSignals(), "a rejection says nothing about the revision");
            }
        }
    }

    private static long kept(EmbeddedController c, String appId) {
        var s = c.controller().status(false).signals().get(appId);
        return s == null ? 0 : s.reported();
    }

    private static long reported(ControllerGrpc.ControllerBlockingStub stub) {
        List<AppStatus> apps = stub.status(StatusRequest.newBuilder().setIncludeSignals(true).build()).getAppsList();
        return apps.isEmpty() ? 0 : apps.get(0).getSignalsReported();
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
