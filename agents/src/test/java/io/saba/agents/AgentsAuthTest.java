package io.saba.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.saba.agents.controller.AgentsBackend;
import io.saba.controller.server.EmbeddedController;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentsGrpc;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.PlanAck;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.WatchPlansRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Who may call the Agents service on a controller with the agents backend, over real gRPC on loopback: an agent's
 * token binds it to its own host, a tenant's token is no agent's, and the Controller service beside it answers its
 * clients as before.
 */
class AgentsAuthTest {
    private static final Map<String, String> TENANTS = Map.of("team", "tenant-secret");
    private static final Map<String, String> AGENTS = Map.of("h1", "h1-secret", "h2", "h2-secret");

    private ManagedChannel channel;

    @AfterEach
    void closeChannel() {
        if (channel != null) {
            channel.shutdownNow();
        }
    }

    private AgentsGrpc.AgentsBlockingStub agent(EmbeddedController c, String token) {
        if (channel == null) {
            channel = Grpc.newChannelBuilder(c.target(), InsecureChannelCredentials.create()).build();
        }
        AgentsGrpc.AgentsBlockingStub stub = AgentsGrpc.newBlockingStub(channel);
        if (token != null) {
            Metadata h = new Metadata();
            h.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
            stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
        }
        return stub.withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    private static AgentAnnounce hello(String host) {
        return AgentAnnounce.newBuilder().setHost(host).build();
    }

    private static Status.Code refusal(Runnable call) {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
    }

    @Test
    void anAgentTokenActsOnlyForItsOwnHost() {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(1));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0, TENANTS, AGENTS)) {
            assertEquals(0, agent(c, "h1-secret").announce(hello("h1")).getVersion());
            assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> agent(c, "h1-secret").announce(hello("h2"))));
            assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> agent(c, "h1-secret")
                    .ackPlan(PlanAck.newBuilder().setHost("h2").setVersion(99).build())));
            assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> agent(c, "h1-secret")
                    .watchPlans(WatchPlansRequest.newBuilder().setHost("h2").build()).hasNext()));
            assertTrue(backend.agents().stream().noneMatch(a -> a.host().equals("h2")),
                    "a refused claim leaves no trace of h2: " + backend.agents());
            assertEquals(Status.Code.UNAUTHENTICATED, refusal(() -> agent(c, null).announce(hello("h1"))));
            assertEquals(Status.Code.UNAUTHENTICATED, refusal(() -> agent(c, "guess").announce(hello("h1"))));
        }
    }

    @Test
    void aTenantTokenCannotActAsAnAgentButStillServesItsClient() {
        try (EmbeddedController c = NetnsFixture.controller(new AgentsBackend(Duration.ofSeconds(1)), 0, TENANTS,
                AGENTS)) {
            assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> agent(c, "tenant-secret").announce(hello("h1"))));
            Metadata h = new Metadata();
            h.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer tenant-secret");
            assertEquals("agents", ControllerGrpc.newBlockingStub(channel)
                    .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
                    .withDeadlineAfter(10, TimeUnit.SECONDS).status(StatusRequest.getDefaultInstance()).getBackend());
            assertEquals(Status.Code.UNAUTHENTICATED, refusal(() -> ControllerGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS).status(StatusRequest.getDefaultInstance())),
                    "the Controller service still requires a tenant token");
        }
    }

    @Test
    void withTenantTokensButNoAgentTokensNoAgentMayConnect() {
        try (EmbeddedController c = NetnsFixture.controller(new AgentsBackend(Duration.ofSeconds(1)), 0, TENANTS,
                Map.of())) {
            assertEquals(Status.Code.UNAUTHENTICATED, refusal(() -> agent(c, null).announce(hello("h1"))));
            assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> agent(c, "tenant-secret")
                    .announce(hello("h1"))));
        }
    }

    @Test
    void anAgentReachesAControllerWithTlsOnlyWhenItTrustsItsCertificate(@org.junit.jupiter.api.io.TempDir
                                                                        java.nio.file.Path dir) throws Exception {
        java.nio.file.Path[] pem = io.saba.controller.server.SelfSigned.in(dir);
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(1));
        try (EmbeddedController c = EmbeddedController.builder().topology(EmbeddedController.thisMachine())
                .tls(pem[0], pem[1]).backend(backend, true).tokens(TENANTS).agentTokens(AGENTS).build()) {
            c.start();
            String target = "127.0.0.1:" + c.address().getPort();
            java.util.List<io.saba.agents.host.NicSpec> nic = java.util.List.of(
                    io.saba.agents.host.NicSpec.parse("saba-none0@1gbit"));
            try (io.saba.agents.host.HostAgent plain = io.saba.agents.host.HostAgent.start(
                    new io.saba.agents.host.AgentSettings(java.util.List.of(target), "h1", nic, "h1-secret",
                            dir.resolve("plain"), Duration.ofSeconds(30), null), new io.saba.process.ProcessRunner())) {
                Thread.sleep(1500);
                assertTrue(backend.agents().isEmpty(), "a plaintext agent cannot talk to a TLS controller");
            }
            try (io.saba.agents.host.HostAgent tls = io.saba.agents.host.HostAgent.start(
                    new io.saba.agents.host.AgentSettings(java.util.List.of(target), "h1", nic, "h1-secret",
                            dir.resolve("tls"), Duration.ofSeconds(30), null, pem[0]),
                    new io.saba.process.ProcessRunner())) {
                NetnsFixture.await(Duration.ofSeconds(10), () -> backend.agents().stream()
                        .anyMatch(a -> a.host().equals("h1") && a.connected()), () -> backend.agents().toString());
                NetnsFixture.await(Duration.ofSeconds(10), tls::connected, () -> "the agent has its first plan");
            }
        }
    }

    @Test
    void anAcknowledgementOfAVersionNeverSentIsIgnored() {
        AgentsBackend backend = new AgentsBackend(Duration.ofMillis(200));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0)) {
            assertEquals("no agent connected for host h1", backend.apply(java.util.List.of(NetnsFixture.alloc(1,
                    0.5, 0.4))).failed().get(new io.saba.core.alloc.PortId("h1", 1)));
            long plan = backend.agents().get(0).planVersion();
            assertTrue(plan > 0);
            // e.g. an agent still acknowledging what a previous controller sent it
            assertEquals(plan, agent(c, null).ackPlan(PlanAck.newBuilder().setHost("h1").setVersion(plan + 1)
                    .build()).getVersion());
            assertEquals(0, backend.agents().get(0).ackedVersion(), backend.agents().toString());
            assertEquals(plan, agent(c, null).ackPlan(PlanAck.newBuilder().setHost("h1").setVersion(plan)
                    .build()).getVersion());
            assertEquals(plan, backend.agents().get(0).ackedVersion(), backend.agents().toString());
        }
    }

    @Test
    void withoutAnyTokensEveryAgentIsLetIn() {
        try (EmbeddedController c = NetnsFixture.controller(new AgentsBackend(Duration.ofSeconds(1)), 0)) {
            assertEquals(0, agent(c, null).announce(hello("h7")).getVersion());
        }
    }
}
