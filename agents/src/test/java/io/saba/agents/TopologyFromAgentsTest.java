package io.saba.agents;

import static io.saba.agents.NetnsFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.saba.agents.host.AgentSettings;
import io.saba.agents.host.HostAgent;
import io.saba.agents.host.NicSpec;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.fabric.AgentStatus;
import io.saba.controller.fabric.linux.RootAssumptions;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import io.saba.controller.topology.AgentTopology;
import io.saba.controller.topology.TopologyLoader;
import io.saba.process.ProcessRunner;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentNic;
import io.saba.proto.v1.AgentsGrpc;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller whose topology is built from its agents ({@code topology: {from-agents: ...}}), read from a
 * configuration file, and three real agents, each enforcing a veth in a network namespace of its own with an address
 * on it: the hosts join as they announce, an application's connection from one host's address gets that host's NIC
 * plan on its agent, a conflicting or unauthorised announcement changes nothing, and a restarted controller still
 * knows every host, also one whose agent is gone.
 */
class TopologyFromAgentsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int HOSTS = 3;
    private static final String TAKEN = "announcement refused: host h4 announced address 10.77.0.1, which host h1 owns";

    @TempDir
    Path dir;
    private final ProcessRunner sh = new ProcessRunner();
    private final List<HostAgent> agents = new ArrayList<>();

    private static String ns(int i) {
        return "saba-jt-topo" + i;
    }

    private static String ip(int i) {
        return "10.77.0." + i;
    }

    @BeforeEach
    void namespaces() {
        RootAssumptions.assumeNetnsRoot("tc");
        for (int i = 1; i <= HOSTS; i++) {
            sh.run(List.of("ip", "netns", "del", ns(i))); // a leftover from a killed run
            sh.check("ip", "netns", "add", ns(i));
            sh.check("ip", "-n", ns(i), "link", "add", "x", "type", "veth", "peer", "name", "y");
            sh.check("ip", "-n", ns(i), "addr", "add", ip(i) + "/24", "dev", "x");
            sh.check("ip", "-n", ns(i), "link", "set", "x", "up");
            sh.check("ip", "-n", ns(i), "link", "set", "y", "up");
        }
    }

    @AfterEach
    void cleanUp() {
        agents.forEach(HostAgent::close);
        for (int i = 1; i <= HOSTS; i++) {
            sh.run(List.of("ip", "netns", "del", ns(i)));
        }
    }

    private Path config(int port) throws Exception {
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, """
                listen: 127.0.0.1:%d
                http: 127.0.0.1:0
                topology: {from-agents: {switch: tor1, queues: 8, rate-gbps: 0.2}, host-queues: 8}
                backend: agents
                backend-options: {ack-timeout-millis: 2000}
                journal-dir: journal
                tokens: {team: "tenant-secret"}
                admin-tenants: [team]
                agent-tokens: {h1: "s1", h2: "s2", h3: "s3", h4: "s4"}
                """.formatted(port));
        return config;
    }

    /** Host i's agent on its namespace's veth; h1 and h3 give their rate, h2 takes the configured one. */
    private HostAgent agent(String target, int i) {
        HostAgent a = HostAgent.start(new AgentSettings(List.of(target), "h" + i,
                List.of(NicSpec.parse(i == 2 ? "x" : "x@100mbit")), "s" + i, dir.resolve("agent" + i),
                Duration.ofSeconds(60), ns(i)), sh);
        agents.add(a);
        return a;
    }

    private static AgentStatus status(EmbeddedController c, String host) {
        return c.backend().agents().stream().filter(a -> a.host().equals(host)).findFirst().orElse(null);
    }

    private static boolean connected(EmbeddedController c, String host) {
        AgentStatus s = status(c, host);
        return s != null && s.connected();
    }

    private String classes(int i) {
        return sh.check("tc", "-n", ns(i), "class", "show", "dev", "x");
    }

    private static AgentsGrpc.AgentsBlockingStub stub(ManagedChannel ch, String token) {
        Metadata h = new Metadata();
        h.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return AgentsGrpc.newBlockingStub(ch).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
                .withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    private static AgentAnnounce announce(String host, String address) {
        return AgentAnnounce.newBuilder().setHost(host).addNics(AgentNic.newBuilder().setName("eth0")
                .setLinkRateBps(1_000_000_000L).addAddresses(address)).build();
    }

    @Test
    void hostsJoinAsTheirAgentsAnnounceAndSurviveARestart() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = config(port);
        Path kept = dir.resolve("journal").resolve(AgentTopology.STATE_FILE);
        InetSocketAddress h1 = new InetSocketAddress(ip(1), 40000);
        InetSocketAddress h2 = new InetSocketAddress(ip(2), 7337);
        try (EmbeddedController c = ControllerConfig.load(config)) {
            c.start();
            agent(c.target(), 1);
            await(WAIT, () -> connected(c, "h1"), () -> "h1's agent connects: " + c.backend().agents());
            assertEquals(Set.of("h1"), TopologyLoader.load(kept).topology().hosts(),
                    "the host that announced is kept in the journal directory");
            assertFalse(classes(1).contains("htb"), "no application yet, so no plan on h1: " + classes(1));

            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()).withToken("tenant-secret"))) {
                SabaApplication lr = client.register(new AppSpec("a-lr", "lr", "spark", "u", 0));
                SabaApplication sort = client.register(new AppSpec("a-sort", "sort", "spark", "u", 0));
                lr.assigned().get(30, TimeUnit.SECONDS);
                sort.assigned().get(30, TimeUnit.SECONDS);
                // h2 has not announced yet: the connection waits for its host instead of being refused
                lr.connectionOpened(h1, h2, Transport.TCP);
                await(WAIT, () -> c.controller().app("a-lr").unrouted() == 1,
                        () -> "the connection to h2 waits: " + c.controller().app("a-lr"));
                assertFalse(classes(1).contains("htb"), "nothing planned yet: " + classes(1));
                for (int i = 2; i <= HOSTS; i++) {
                    agent(c.target(), i);
                    String host = "h" + i;
                    await(WAIT, () -> connected(c, host), () -> host + "'s agent connects: " + c.backend().agents());
                }
                assertEquals(Set.of("h1", "h2", "h3"), TopologyLoader.load(kept).topology().hosts());
                sort.connectionOpened(h2, new InetSocketAddress(ip(1), 7337), Transport.TCP);
                await(WAIT, () -> classes(1).contains("ceil 100Mbit") && classes(2).contains("ceil 200Mbit"),
                        () -> "each sender's agent gets its NIC's plan at its rate: h1 " + classes(1) + "; h2 "
                                + classes(2));
                assertEquals(0, c.controller().app("a-lr").unrouted(), "h2's announcement routed the connection");
                assertFalse(classes(3).contains("htb"), "h3 sends nothing: " + classes(3));
                AgentStatus s1 = status(c, "h1");
                await(WAIT, () -> status(c, "h1").ackedVersion() == status(c, "h1").planVersion(),
                        () -> "h1's agent acknowledges its plan: " + status(c, "h1"));
                assertEquals(1, s1.ports(), s1.toString());

                // an address another host owns, and hosts without their own token: refused, nothing changes
                String before = Files.readString(kept);
                ManagedChannel ch = Grpc.newChannelBuilder(c.target(), InsecureChannelCredentials.create()).build();
                try {
                    StatusRuntimeException taken = assertThrows(StatusRuntimeException.class,
                            () -> stub(ch, "s4").announce(announce("h4", ip(1))));
                    assertEquals(Status.Code.INVALID_ARGUMENT, taken.getStatus().getCode());
                    assertEquals(TAKEN, taken.getStatus().getDescription());
                    assertEquals(Status.Code.PERMISSION_DENIED, assertThrows(StatusRuntimeException.class,
                            () -> stub(ch, "s4").announce(announce("h5", "10.77.0.5"))).getStatus().getCode());
                    assertEquals(Status.Code.UNAUTHENTICATED, assertThrows(StatusRuntimeException.class,
                            () -> stub(ch, "nobody").announce(announce("h5", "10.77.0.5"))).getStatus().getCode());
                } finally {
                    ch.shutdownNow();
                }
                assertEquals(before, Files.readString(kept));
                assertEquals(TAKEN, status(c, "h4").lastError());
                String page = page(c);
                assertTrue(page.contains("which host h1 owns"), "the refusal is on /status");
                assertEquals(ip(1) + ":40000 -> " + ip(2) + ":7337", connection(c, "a-lr"),
                        "h1's application keeps its connection");
                lr.deregister();
                sort.deregister();
            }
        }

        // the controller restarts while h3's agent is gone: h3 is still a host, from the journal directory
        agents.remove(2).close();
        try (EmbeddedController c = ControllerConfig.load(config)) {
            c.start();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()).withToken("tenant-secret"))) {
                SabaApplication app = client.register(new AppSpec("a-3", "lr", "spark", "u", 0));
                app.assigned().get(30, TimeUnit.SECONDS);
                app.connectionOpened(new InetSocketAddress(ip(3), 40000), h1, Transport.TCP);
                await(WAIT, () -> c.controller().app("a-3") != null && c.controller().app("a-3").connections() == 1,
                        () -> "the connection is applied: " + c.controller().app("a-3"));
                AppView v = c.controller().app("a-3");
                assertEquals(0, v.unrouted(), "h3 is known after the restart, its agent gone: " + v);
                await(WAIT, () -> status(c, "h3") != null && status(c, "h3").missing(),
                        () -> "h3's plan waits for its agent: " + c.backend().agents());
                await(WAIT, () -> connected(c, "h1") && connected(c, "h2"),
                        () -> "h1's and h2's agents reconnect: " + c.backend().agents());
                assertEquals(Set.of("h1", "h2", "h3"), TopologyLoader.load(kept).topology().hosts());
            }
        }
    }

    /** The status page, as the admin tenant sees it. */
    private static String page(EmbeddedController c) throws Exception {
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                        + c.httpAddress().getPort() + "/status")).header("Authorization", "Bearer tenant-secret").build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static String connection(EmbeddedController c, String app) {
        AppView v = c.controller().app(app);
        return v == null || v.open().isEmpty() ? "" : v.open().get(0).srcIp() + ":" + v.open().get(0).srcPort()
                + " -> " + v.open().get(0).dstIp() + ":" + v.open().get(0).dstPort();
    }
}
