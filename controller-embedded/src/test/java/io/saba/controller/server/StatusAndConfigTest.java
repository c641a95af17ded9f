package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone configuration, topology files and shapes, and the read-only HTTP status page. */
class StatusAndConfigTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void aConfigFileStartsAControllerWithStatusPageAndMetrics(@TempDir Path dir) throws Exception {
        Files.copy(Path.of("../examples/sensitivity-table.json"), dir.resolve("table.json"));
        Files.writeString(dir.resolve("topo.yaml"), """
                hosts:
                  - {name: h1, addresses: [10.0.0.1]}
                  - {name: h2, addresses: [10.0.0.2]}
                  - {name: h3, addresses: ["10.0.0.3", "fd00::3"]}
                switches:
                  - {name: s0, queues: 4}
                links:
                  - {a: h1, a-port: 1, b: s0, b-port: 11, gbps: 10}
                  - {a: h2, a-port: 1, b: s0, b-port: 12, gbps: 10}
                  - {a: h3, b: s0, gbps: 10}
                """);
        Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                http: 127.0.0.1:0
                topology: {file: topo.yaml}
                table: table.json
                c-saba: 0.8
                levels: 8
                backend: dry-run
                backend-options: {log: false}
                lease-timeout-seconds: 10
                journal-dir: state
                journal-fsync: interval
                """);
        try (EmbeddedController c = ControllerConfig.load(dir.resolve("saba.yaml"))) {
            c.start();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication app = client.register(new AppSpec("app-<1>", "lr", "spark", "alice", 0));
                // on a loaded machine the first call may miss its deadline; the client retries: wait for the level
                await("a level over the client").atMost(Fixtures.PATIENCE).until(() -> app.level() >= 1);
                app.connectionOpened(new InetSocketAddress("fd00::3", 4000), new InetSocketAddress("10.0.0.2", 80),
                        Transport.TCP);
                await("allocation pushed").atMost(Fixtures.PATIENCE)
                        .until(() -> !((DryRunBackend) c.backend()).configured().isEmpty());
            }
            assertEquals(List.of(new PortId("s0", 12)), List.copyOf(((DryRunBackend) c.backend()).configured().keySet()),
                    "h3 (by its IPv6 address) to h2 leaves s0 through port 12");
            assertTrue(Files.exists(dir.resolve("state/journal.log")));

            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            String metrics = get(base + "/metrics", 200);
            assertTrue(metrics.contains("saba_registrations_total 1"), metrics);
            assertTrue(metrics.contains("# TYPE saba_recompute_seconds histogram"));
            assertTrue(metrics.contains("saba_connections 1"));
            JsonNode json = new ObjectMapper().readTree(get(base + "/status.json", 200));
            assertEquals("app-<1>", json.at("/applications/0/app_id").asText());
            assertTrue(json.at("/applications/0/workload_known").asBoolean());
            assertEquals("s0:12", json.at("/ports/0/port").asText());
            assertEquals(0.2, json.at("/ports/0/queue_weights/0").asDouble(), 1e-9, "1 - C_Saba");
            assertTrue(json.at("/ports/0/predicted_slowdown").isNumber(), "the port's predicted slowdown");
            assertTrue(json.at("/drift").isEmpty(), "the dry run never drifts");
            String html = get(base + "/status", 200);
            assertTrue(html.contains("app-&lt;1&gt;"), "names are escaped in HTML");
            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/status"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode(), "read-only");
        }
    }

    /** A backend that reads its ports back and finds one rewritten by someone else (what InfiniBand's can do). */
    private static final class DriftedBackend implements io.saba.controller.fabric.FabricBackend {
        private final DryRunBackend inner = new DryRunBackend(false, 100);

        @Override
        public String name() {
            return "drifted";
        }

        @Override
        public io.saba.controller.fabric.ApplyResult apply(java.util.Collection<io.saba.core.alloc.PortAllocation> c) {
            return inner.apply(c);
        }

        @Override
        public io.saba.controller.fabric.ApplyResult release(java.util.Set<PortId> ports) {
            return inner.release(ports);
        }

        @Override
        public java.util.Map<PortId, String> drift() {
            return java.util.Map.of(new PortId("s0", 2), "low VLArb: VL1 weight 9, wrote 6");
        }

        @Override
        public DriftCheck driftCheck() {
            return new DriftCheck(java.time.Duration.ofSeconds(30), java.time.Instant.now(), 1, false);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void driftTheBackendFindsIsOnTheStatus() throws Exception {
        try (EmbeddedController c = Fixtures.builder().backend(new DriftedBackend(), true)
                .http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            JsonNode json = new ObjectMapper().readTree(get(base + "/status.json", 200));
            assertEquals("low VLArb: VL1 weight 9, wrote 6", json.at("/drift/s0:2").asText(), json.toString());
            assertEquals(30, json.at("/fabric/drift_check/every_seconds").asInt(), json.toString());
            String page = get(base + "/status", 200);
            assertTrue(page.contains("VL1 weight 9"), "and on the HTML page");
            assertTrue(page.contains("checked every 30 s") && page.contains("1 drifted"), page);
            var ch = Fixtures.channel(c);
            try {
                assertEquals(java.util.Map.of("s0:2", "low VLArb: VL1 weight 9, wrote 6"), Fixtures.stub(ch)
                        .status(io.saba.proto.v1.StatusRequest.getDefaultInstance()).getDriftMap(), "and on gRPC");
            } finally {
                ch.shutdownNow();
            }
        }
    }

    /** A dry run that refuses one port, as a switch that does not answer would. */
    private static final class RefusingBackend implements FabricBackend {
        private final DryRunBackend inner = new DryRunBackend(false, 100);
        private final PortId refused;

        RefusingBackend(PortId refused) {
            this.refused = refused;
        }

        @Override
        public String name() {
            return "refusing";
        }

        @Override
        public ApplyResult apply(java.util.Collection<PortAllocation> changed) {
            ApplyResult r = inner.apply(changed.stream().filter(a -> !a.port().equals(refused)).toList());
            return changed.stream().anyMatch(a -> a.port().equals(refused))
                    ? new ApplyResult(r.applied(), java.util.Map.of(refused, "SMP timeout after 200 ms")) : r;
        }

        @Override
        public ApplyResult release(java.util.Set<PortId> ports) {
            return inner.release(ports);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    /**
     * A push the backend refuses for one port is on the status: the last push's result names the port and the
     * backend's reason, and the port is listed as retried.
     */
    @Test
    void aFailedPushIsOnTheStatus() throws Exception {
        PortId refused = new PortId("s0", 2);
        try (EmbeddedController c = Fixtures.builder().backend(new RefusingBackend(refused), true)
                .http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            var ch = Fixtures.channel(c);
            try {
                var stub = Fixtures.stub(ch);
                stub.register(Fixtures.register("app-1", "lr"));
                stub.connectionOpened(Fixtures.event("app-1", Fixtures.conn(1, 4000, 2, 80), 1));
                stub.connectionOpened(Fixtures.event("app-1", Fixtures.conn(1, 4001, 3, 80), 2));
            } finally {
                ch.shutdownNow();
            }
            await("s0:2 refused").atMost(Fixtures.PATIENCE)
                    .until(() -> c.controller().recomputer().retrying().containsKey(refused));
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            JsonNode json = new ObjectMapper().readTree(get(base + "/status.json", 200));
            JsonNode fabric = json.get("fabric");
            assertTrue(fabric.at("/retrying/s0:2/attempts").asInt() >= 1, fabric.toString());
            assertEquals("SMP timeout after 200 ms", fabric.at("/retrying/s0:2/reason").asText(), fabric.toString());
            String page = get(base + "/status", 200);
            assertTrue(page.contains("Being retried") && page.contains("SMP timeout after 200 ms"), page);
            assertTrue(page.contains("drift: this backend does not read its ports back"), page);
        }
    }

    private static String get(String url, int status) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), url);
        return r.body();
    }

    @Test
    void configurationMistakesAreNamed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "listen: 127.0.0.1:0\ntopolgy: {shape: single-switch:2}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerConfig.load(dir.resolve("bad.yaml")));
        assertTrue(e.getMessage().contains("unknown key 'topolgy'"), e.getMessage());
        Files.writeString(dir.resolve("bad2.yaml"), "topology: {shape: single-switch:2}\nbackend: nope\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad2.yaml")));
        assertTrue(e.getMessage().contains("unknown fabric backend 'nope'; available: [dry-run]"), e.getMessage());
        Files.writeString(dir.resolve("bad2b.yaml"), "topology: {shape: single-switch:2}\nbackend: linux\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad2b.yaml")));
        assertTrue(e.getMessage().contains("(module saba-fabric-linux is not on the class path)"), e.getMessage());
        Files.writeString(dir.resolve("group.yaml"), "topology: {shape: single-switch:2}\ncluster: zk://z:1/saba\n");
        assertEquals("zk://z:1/saba", ControllerConfig.builder(dir.resolve("group.yaml")).groupUri(),
                "'cluster', the group key's former name, still reads");
        Files.writeString(dir.resolve("bad2c.yaml"),
                "topology: {shape: single-switch:2}\ngroup: zk://z:1/a\ncluster: zk://z:1/b\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad2c.yaml")));
        assertTrue(e.getMessage().contains("give 'group' or its former name 'cluster', not both"), e.getMessage());
        Files.writeString(dir.resolve("bad2d.yaml"), "topology: {shape: single-switch:2}\nsensitivity: learnt\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad2d.yaml")));
        assertTrue(e.getMessage().endsWith("bad2d.yaml: sensitivity must be table, online or blended, got 'learnt'"),
                e.getMessage());
        Files.writeString(dir.resolve("bad3.yaml"), "topology: {shape: ring:4}\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad3.yaml")));
        assertTrue(e.getMessage().contains("unknown topology shape 'ring:4'"), e.getMessage());
        Files.writeString(dir.resolve("bad4.yaml"), "topology: {discover: infiniband}\n");
        e = assertThrows(IllegalArgumentException.class, () -> ControllerConfig.load(dir.resolve("bad4.yaml")));
        assertTrue(e.getMessage().contains("unknown topology discovery 'infiniband'; available: []"
                + " (module saba-fabric-infiniband is not on the class path)"), e.getMessage());
    }

    @Test
    void shapesGetAddressesInNaturalHostOrder() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        TopologyResolver t = TopologyLoader.fromNode(yaml.readTree(
                "{shape: 'single-switch:12', gbps: 10, queues: 4, address-base: 10.1.0.1}"), "test", null);
        assertEquals("h1", t.hostOf("10.1.0.1").orElseThrow());
        assertEquals("h10", t.hostOf("10.1.0.10").orElseThrow(), "h10 after h9, not after h1");
        TopologyResolver ft = TopologyLoader.fromNode(yaml.readTree(
                "{shape: 'fat-tree:4', gbps: 10, queues: 8, address-base: 10.2.0.1}"), "test", null);
        assertEquals(16, ft.addresses().size());
        String a = ft.hostOf("10.2.0.1").orElseThrow();
        String b = ft.hostOf("10.2.0.16").orElseThrow();
        assertEquals(5, ft.path(a, b).size(), "across pods: edge, aggregation, core, aggregation, edge");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TopologyLoader.fromNode(
                yaml.readTree("{hosts: [{name: h1, addresses: [10.0.0.1]}, {name: h2, addresses: [10.0.0.1]}],"
                        + " switches: [{name: s, queues: 2}], links: [{a: h1, b: s, gbps: 1}, {a: h2, b: s, gbps: 1}]}"), "test", null));
        assertTrue(e.getMessage().contains("address 10.0.0.1 given to both h1 and h2"), e.getMessage());
    }

    @Test
    void hostQueuesPutTheSendersNicFirstOnEveryPath(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("topology.yaml");
        Files.writeString(topo, """
                hosts: [{name: h1, addresses: [10.0.0.1]}, {name: h2, addresses: [10.0.0.2]}]
                switches: [{name: s, queues: 8}]
                links: [{a: h1, a-port: 0, b: s, b-port: 1, gbps: 1}, {a: h2, a-port: 3, b: s, b-port: 2, gbps: 1}]
                """);
        ObjectMapper yaml = new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        TopologyResolver plain = TopologyLoader.fromNode(yaml.readTree("{file: topology.yaml}"), "cfg", dir);
        assertEquals(List.of(new PortId("s", 1)), plain.path("h2", "h1"));
        assertEquals(8, plain.minQueues());

        TopologyResolver hosts = TopologyLoader.fromNode(yaml.readTree("{file: topology.yaml, host-queues: 4}"), "cfg", dir);
        assertEquals(List.of(new PortId("h2", 3), new PortId("s", 1)), hosts.path("h2", "h1"), "the NIC's own port");
        assertEquals(List.of(new PortId("h1", 0), new PortId("s", 2)), hosts.path("h1", "h2"));
        assertEquals(List.of(), hosts.path("h1", "h1"), "a host talking to itself crosses no port");
        assertEquals(4, hosts.queues(new PortId("h2", 3)));
        assertEquals(8, hosts.queues(new PortId("s", 1)));
        assertEquals(4, hosts.minQueues(), "the level hierarchy must fit the host queues too");
        assertThrows(IllegalArgumentException.class, () -> hosts.queues(new PortId("h2", 0)), "not h2's port");

        for (String bad : List.of("1", "two", "2.5")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TopologyLoader.fromNode(
                    yaml.readTree("{file: topology.yaml, host-queues: " + bad + "}"), "cfg", dir));
            assertTrue(e.getMessage().startsWith("cfg: ") && e.getMessage().contains("host-queues"), e.getMessage());
        }
    }
}
