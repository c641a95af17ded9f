package io.saba.controller.server;

import static io.saba.controller.server.ControllerGrpcTest.expect;
import static io.saba.controller.server.Fixtures.conn;
import static io.saba.controller.server.Fixtures.event;
import static io.saba.controller.server.Fixtures.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.saba.proto.v1.AllocationChange;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.HeartbeatRequest;
import io.saba.proto.v1.PortStatus;
import io.saba.proto.v1.ReloadTableRequest;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.StatusResponse;
import io.saba.proto.v1.WatchRequest;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, items 7 and 8: every refusal is counted, the push-lag summary follows Prometheus' conventions, a tenant
 * sees only its own applications on every transport, and the HTTP pages take the gRPC tokens (or, without tokens,
 * sit on loopback by default and say so).
 */
class AccessAndRefusalsTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Map<String, String> TOKENS = Map.of("alice", "token-a", "bob", "token-b", "ops", "token-ops");

    private static EmbeddedController.Builder withTokens() {
        return Fixtures.builder().tokens(TOKENS).adminTenants(Set.of("ops"))
                .http(new InetSocketAddress("127.0.0.1", 0));
    }

    @Test
    void everyRefusalIsCountedAndThePushLagSummaryHasItsSum() throws Exception {
        try (EmbeddedController c = withTokens().build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                ControllerGrpc.ControllerBlockingStub alice = Fixtures.stub(ch, "token-a");
                alice.register(register("spark-1", "lr"));
                alice.connectionOpened(event("spark-1", conn(1, 1, 2, 2), 0));
                Fixtures.quiesce(c);
                assertEquals(0, rejected(c), "nothing refused yet");

                // validation, before the request reaches the controller's state
                expect(Status.Code.INVALID_ARGUMENT, "app_id is empty", () -> alice.register(register("", "lr")));
                // authentication: no token, an unknown token
                expect(Status.Code.UNAUTHENTICATED, "missing 'authorization: Bearer <token>' header",
                        () -> Fixtures.stub(ch).register(register("spark-2", "lr")));
                expect(Status.Code.UNAUTHENTICATED, "the bearer token matches no tenant",
                        () -> Fixtures.stub(ch, "token-x").register(register("spark-2", "lr")));
                // a reload by a tenant that is no admin
                expect(Status.Code.PERMISSION_DENIED, "may not reload the sensitivity table",
                        () -> alice.reloadTable(ReloadTableRequest.newBuilder().setTableJson("{}").build()));
                // against the state: an unknown application
                expect(Status.Code.NOT_FOUND, "is not registered",
                        () -> alice.heartbeat(HeartbeatRequest.newBuilder().setAppId("nobody").build()));
                // a batch: one malformed event, one of an unknown application, one applied
                ConnectionBatch batch = ConnectionBatch.newBuilder()
                        .addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(ConnectionEvent.newBuilder()
                                .setAppId("spark-1")))
                        .addEvents(BatchedEvent.newBuilder().setOpen(true)
                                .setEvent(event("nobody", conn(1, 3, 2, 4), 0)))
                        .addEvents(BatchedEvent.newBuilder().setOpen(true)
                                .setEvent(event("spark-1", conn(1, 5, 2, 6), 0)))
                        .build();
                assertEquals(2, alice.reportConnections(batch).getRejected());
                assertEquals(7, rejected(c), "1 invalid + 2 unauthenticated + 1 denied reload + 1 unknown "
                        + "application + 2 refused events of a batch");

                // the HTTP pages refuse a missing token too, and count it
                assertEquals(401, get(c, "/metrics", null).statusCode());
                assertEquals(8, rejected(c));

                String metrics = get(c, "/metrics", "token-ops").body();
                assertTrue(metrics.contains("saba_requests_rejected_total 8"), metrics);
                // a summary is its quantiles, _sum and _count (Prometheus' exposition conventions)
                assertTrue(metrics.contains("# TYPE saba_push_lag_seconds summary"), metrics);
                double sum = sample(metrics, "saba_push_lag_seconds_sum");
                double count = sample(metrics, "saba_push_lag_seconds_count");
                assertTrue(count >= 1, "a push happened: " + metrics);
                assertTrue(sum > 0 && sum < count * 60, "the lags' sum in seconds: " + sum + " over " + count);
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aTenantSeesOnlyItsOwnApplicationsOnEveryTransport() throws Exception {
        try (EmbeddedController c = withTokens().build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                ControllerGrpc.ControllerBlockingStub alice = Fixtures.stub(ch, "token-a");
                ControllerGrpc.ControllerBlockingStub bob = Fixtures.stub(ch, "token-b");
                ControllerGrpc.ControllerBlockingStub ops = Fixtures.stub(ch, "token-ops");
                alice.register(register("alice-secret-app", "lr"));
                bob.register(register("bob-app", "wc"));
                // both cross the switch port towards h2: one port, two tenants' applications
                alice.connectionOpened(event("alice-secret-app", conn(1, 1, 2, 2), 0));
                bob.connectionOpened(event("bob-app", conn(3, 1, 2, 3), 0));
                Fixtures.quiesce(c);

                StatusRequest withConnections = StatusRequest.newBuilder().setIncludeConnections(true).build();
                StatusResponse mine = bob.status(withConnections);
                assertEquals(List.of("bob-app"), Fixtures.ids(mine.getAppsList()));
                assertEquals(1, mine.getPortsCount(), "the one port bob's application crosses");
                for (PortStatus p : mine.getPortsList()) {
                    assertEquals(Set.of("bob-app"), p.getAppWeightsMap().keySet(), "only bob's weights");
                }
                assertFalse(mine.toString().contains("alice"), mine.toString());
                assertEquals(new TreeSet<>(List.of("alice-secret-app", "bob-app")),
                        new TreeSet<>(Fixtures.ids(ops.status(withConnections).getAppsList())), "admins see all");
                assertEquals(Set.of("alice-secret-app", "bob-app"),
                        ops.status(withConnections).getPorts(0).getAppWeightsMap().keySet());

                // the HTTP pages: the same tokens, the same views
                HttpResponse<String> anonymous = get(c, "/status.json", null);
                assertEquals(401, anonymous.statusCode());
                assertEquals("Bearer realm=\"saba\"", anonymous.headers().firstValue("WWW-Authenticate").orElse(""));
                assertEquals(401, get(c, "/status", "token-x").statusCode(), "an unknown token");
                assertEquals(401, get(c, "/metrics", null).statusCode());
                HttpResponse<String> bobJson = get(c, "/status.json", "token-b");
                assertEquals(200, bobJson.statusCode());
                JsonNode json = new ObjectMapper().readTree(bobJson.body());
                assertEquals(1, json.at("/applications").size());
                assertEquals("bob-app", json.at("/applications/0/app_id").asText());
                assertFalse(bobJson.body().contains("alice"), bobJson.body());
                assertTrue(json.at("/access").asText().contains("bearer token required"), bobJson.body());
                String bobHtml = get(c, "/status", "token-b").body();
                assertTrue(bobHtml.contains("bob-app") && !bobHtml.contains("alice"), bobHtml);
                String opsJson = get(c, "/status.json", "token-ops").body();
                assertTrue(opsJson.contains("alice-secret-app") && opsJson.contains("bob-app"), opsJson);
                // a scraper sends any tenant's token; the metrics hold counts, no tenant's data
                HttpResponse<String> scrape = get(c, "/metrics", "token-b");
                assertEquals(200, scrape.statusCode());
                assertTrue(scrape.body().contains("saba_applications 2"), scrape.body());
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aTenantsWatchShowsOnlyItsOwnApplicationsWeights() throws Exception {
        try (EmbeddedController c = withTokens().build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                ControllerGrpc.ControllerBlockingStub alice = Fixtures.stub(ch, "token-a");
                ControllerGrpc.ControllerBlockingStub bob = Fixtures.stub(ch, "token-b");
                alice.register(register("alice-secret-app", "lr"));
                bob.register(register("bob-app", "wc"));
                Iterator<AllocationChange> changes = Fixtures.stub(ch, "token-b").withDeadlineAfter(30,
                        TimeUnit.SECONDS).watch(WatchRequest.getDefaultInstance());
                // the watch is registered asynchronously: both tenants keep changing shared ports until bob sees his
                Thread producer = new Thread(() -> {
                    for (int i = 1; i < 300 && !Thread.currentThread().isInterrupted(); i++) {
                        try {
                            alice.connectionOpened(event("alice-secret-app", conn(1, i, 2 + i % 6, 2), 0));
                            bob.connectionOpened(event("bob-app", conn(8, i, 2 + i % 6, 3), 0));
                            Thread.sleep(20);
                        } catch (InterruptedException | io.grpc.StatusRuntimeException e) {
                            return;
                        }
                    }
                });
                producer.start();
                try {
                    int seen = 0;
                    while (seen < 3) {
                        AllocationChange change = changes.next();
                        assertFalse(change.toString().contains("alice"), change.toString());
                        for (PortStatus p : change.getChangedList()) {
                            assertEquals(Set.of("bob-app"), p.getAppWeightsMap().keySet(), change.toString());
                            seen++;
                        }
                    }
                } finally {
                    producer.interrupt();
                    producer.join();
                }
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void withoutTokensThePagesDefaultToLoopbackAndSaySo() throws Exception {
        assertEquals(new InetSocketAddress("127.0.0.1", 7071), ControllerConfig.httpAddress("7071", "http"));
        assertEquals(new InetSocketAddress("127.0.0.1", 7071), ControllerConfig.httpAddress(":7071", "http"));
        assertEquals(new InetSocketAddress("0.0.0.0", 7071), ControllerConfig.httpAddress("0.0.0.0:7071", "http"));
        try (EmbeddedController c = Fixtures.builder().http(ControllerConfig.httpAddress("0", "http")).build()) {
            c.start();
            assertTrue(c.httpAddress().getAddress().isLoopbackAddress(), c.httpAddress().toString());
            HttpResponse<String> r = get(c, "/status.json", null);
            assertEquals(200, r.statusCode(), "no tokens: open, on loopback");
            assertEquals("loopback only, no authentication (no tokens configured)",
                    new ObjectMapper().readTree(r.body()).at("/access").asText());
        }
    }

    private static long rejected(EmbeddedController c) {
        return (long) sample(c.api().metrics().prometheus(), "saba_requests_rejected_total");
    }

    private static double sample(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(metrics);
        assertTrue(m.find(), name + " missing from:\n" + metrics);
        return Double.parseDouble(m.group(1));
    }

    private static HttpResponse<String> get(EmbeddedController c, String path, String token) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.httpAddress().getPort()
                + path));
        if (token != null) {
            r.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }
}
