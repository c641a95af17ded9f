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
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentsGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents backend as an operator configures it: {@code backend: agents} with agent tokens and a backend for the
 * switch ports, read from a controller configuration file and served on the controller's gRPC port.
 */
class AgentsConfigTest {
    @TempDir
    Path dir;

    @Test
    void aConfigurationWithAgentTokensAndASwitchBackendServesAgents() throws Exception {
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, """
                listen: 127.0.0.1:0
                topology: {shape: "single-switch:2", gbps: 10, queues: 8, address-base: 10.0.0.1, host-queues: 4}
                backend: agents
                backend-options: {ack-timeout-millis: 300, switches: dry-run}
                tokens: {team: "tenant-secret"}
                agent-tokens: {h1: "h1-secret"}
                """);
        try (EmbeddedController c = ControllerConfig.load(config)) {
            c.start();
            AgentsBackend backend = (AgentsBackend) c.backend();
            ManagedChannel ch = Grpc.newChannelBuilder(c.target(), InsecureChannelCredentials.create()).build();
            try {
                Metadata h = new Metadata();
                h.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer h1-secret");
                AgentsGrpc.AgentsBlockingStub stub = AgentsGrpc.newBlockingStub(ch)
                        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
                assertEquals(0, stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                        .announce(AgentAnnounce.newBuilder().setHost("h1").build()).getVersion());
                assertEquals(Status.Code.PERMISSION_DENIED, assertThrows(StatusRuntimeException.class,
                        () -> stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                                .announce(AgentAnnounce.newBuilder().setHost("h2").build())).getStatus().getCode());
            } finally {
                ch.shutdownNow();
            }
            // a switch port goes to the switch backend; a host port to its agent (none is connected here)
            PortId switchPort = new PortId("s0", 1);
            PortId nic = new PortId("h1", 1);
            ApplyResult r = backend.apply(List.of(NetnsFixture.alloc(switchPort, 0.5, 0.4),
                    NetnsFixture.alloc(1, 0.5, 0.4)));
            assertEquals(java.util.Set.of(switchPort), r.applied(), r.toString());
            assertEquals("no agent connected for host h1", r.failed().get(nic));
        }
    }

    @Test
    void switchPortsGoToTheSwitchBackendAndHostPortsToAgents() {
        DryRunBackend dry = new DryRunBackend(false, 100);
        AgentsBackend backend = new AgentsBackend(java.time.Duration.ofMillis(300), dry);
        try (EmbeddedController c = NetnsFixture.controller(backend, 0)) {
            PortId switchPort = new PortId("s0", 2);
            ApplyResult r = backend.apply(List.of(NetnsFixture.alloc(switchPort, 0.6, 0.3),
                    NetnsFixture.alloc(1, 0.6, 0.3)));
            assertEquals(java.util.Set.of(switchPort), r.applied(), r.toString());
            assertEquals(java.util.Set.of(switchPort), dry.configured().keySet());
            assertTrue(backend.agents().get(0).missing(), backend.agents().toString());
            assertEquals(java.util.Set.of(switchPort), backend.release(java.util.Set.of(switchPort)).applied());
            assertTrue(dry.configured().isEmpty(), dry.configured().toString());
        }
    }

    @Test
    void switchOptionsWithoutASwitchBackendAreRefused() throws Exception {
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, """
                topology: {shape: "single-switch:2", gbps: 10}
                backend: agents
                backend-options: {switches.ports: "s0:1=eth0@1gbit"}
                """);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(config));
        assertEquals("backend-options: switches.* options given without 'switches'", e.getMessage());
    }

    @Test
    void fromAgentsIsRefusedWithOneLineWhereItCannotWork() throws Exception {
        Path config = dir.resolve("controller.yaml");
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put("topology: {from-agents: {switch: tor1}, file: cluster.yaml, host-queues: 8}\nbackend: agents",
                "topology: give 'from-agents' (hosts learned from their agents) or 'file', not both");
        refusals.put("topology: {from-agents: {switch: tor1, rate: 10}, host-queues: 8}\nbackend: agents",
                "unknown key 'topology.from-agents.rate'; known keys: [fabric, queues, rate-gbps, switch, under]");
        refusals.put("topology: {from-agents: {switch: tor1}, host-queues: 8}\nbackend: dry-run",
                "topology.from-agents learns the hosts from their agents, so it needs backend: agents");
        refusals.put("topology: {from-agents: {switch: tor1}, host-queues: 8}\nbackend: agents\n"
                + "group: zk://127.0.0.1:2181/saba", "topology.from-agents is not supported in a controller group; "
                + "give the group a topology file");
        refusals.put("topology: {from-agents: {}, host-queues: 8}\nbackend: agents",
                "topology: from-agents needs either 'switch' (one switch for every host) or 'fabric' (a file of "
                        + "switches) with 'under'");
        for (Map.Entry<String, String> r : refusals.entrySet()) {
            Files.writeString(config, r.getKey() + "\n");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ControllerConfig.load(config), r.getKey());
            assertEquals(config + ": " + r.getValue(), e.getMessage());
        }
    }

    @Test
    void aVirtualNicWithoutAConfiguredRateIsRefusedOnStatus() throws Exception {
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, """
                listen: 127.0.0.1:0
                topology: {from-agents: {switch: tor1}, host-queues: 8}
                backend: agents
                """);
        try (EmbeddedController c = ControllerConfig.load(config)) {
            c.start();
            ManagedChannel ch = Grpc.newChannelBuilder(c.target(), InsecureChannelCredentials.create()).build();
            try {
                AgentsGrpc.AgentsBlockingStub stub = AgentsGrpc.newBlockingStub(ch);
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub
                        .withDeadlineAfter(10, TimeUnit.SECONDS).announce(AgentAnnounce.newBuilder().setHost("h1")
                                .addNics(io.saba.proto.v1.AgentNic.newBuilder().setName("veth0")
                                        .addAddresses("10.0.0.1")).build()));
                assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
                String why = "announcement refused: host h1 announced no link rate for veth0 (a virtual NIC?); set "
                        + "topology.from-agents.rate-gbps, or start its agent with --nic veth0@RATE";
                assertEquals(why, e.getStatus().getDescription());
                assertEquals(why, c.controller().status(false).fabric().agents().get(0).lastError());
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
