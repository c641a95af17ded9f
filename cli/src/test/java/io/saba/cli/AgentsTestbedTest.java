package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.saba.process.Host;
import io.saba.process.ProcessRunner;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.Transport;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents end to end on the namespace testbed: the controller runs in h1's namespace ({@code saba controller},
 * {@code backend: agents}), each of h2 and h3 runs {@code saba agent} in its own namespace, and the agents reach the
 * controller over the testbed's network. The test reports two applications' connections from h2 to h3 (through a
 * side link of its own into h1) and reads h2's NIC back with tc: the agent enforces the controller's plan there,
 * survives being killed with -9 and restarted, restores the NIC when partitioned from the controller or when the
 * controller is killed, and converges again when the partition heals or the controller restarts from its journal.
 */
class AgentsTestbedTest {
    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final String SIDE = "192.168.251.";

    @TempDir
    Path dir;

    private final ProcessRunner sh = new ProcessRunner();
    private final List<Process> started = new ArrayList<>();
    private TestbedSpec spec;

    @Test
    void agentsEnforceOnEveryHostsNicAndSurviveKills() throws Exception {
        assumeTrue(Host.root() && Host.onPath("tc") && Host.onPath("ip") && Host.onPath("ethtool"),
                "needs root, tc, ip and ethtool (CI runs as root)");
        spec = TestbedSpec.of("agt", 3, 100_000_000L);
        Testbed tb = new Testbed(sh);
        tb.down(spec.name());
        Path topology = tb.up(spec);
        try {
            sideLink();
            Path config = controllerConfig(topology);
            Process controller = saba(1, "controller", "--config", config.toString());
            Process agent2 = agent(2);
            agent(3);
            await(() -> agentsConnected() == 2, () -> "both agents connect over the testbed: " + status());

            ManagedChannel ch = Grpc.newChannelBuilder(SIDE + "2:7070", InsecureChannelCredentials.create()).build();
            try {
                ControllerGrpc.ControllerBlockingStub c = ControllerGrpc.newBlockingStub(ch);
                int port = 40_000;
                for (String[] app : new String[][] {{"app-lr", "lr"}, {"app-sort", "sort"}}) {
                    c.withDeadlineAfter(10, TimeUnit.SECONDS).register(RegisterRequest.newBuilder()
                            .setAppId(app[0]).setWorkload(app[1]).setFramework("spark").build());
                    c.withDeadlineAfter(10, TimeUnit.SECONDS).connectionOpened(ConnectionEvent.newBuilder()
                            .setAppId(app[0]).setSeq(1).setConnection(Connection.newBuilder()
                                    .setSrc(Endpoint.newBuilder().setIp(spec.address(2)).setPort(port++))
                                    .setDst(Endpoint.newBuilder().setIp(spec.address(3)).setPort(7337))
                                    .setTransport(Transport.TCP)).build());
                }
            } finally {
                ch.shutdownNow();
            }
            await(() -> sabaQueues(2) == 2, () -> "h2's NIC gets the plan's two queues: " + classes(2));
            await(() -> agent("h2").path("lag").asLong(-1) == 0 && agent("h2").path("acked_version").asLong() > 0,
                    () -> "h2's agent acknowledged: " + status());
            assertEquals(0, sabaQueues(3), "h3 sends nothing, so its NIC has no plan: " + classes(3));

            kill(agent2);
            assertEquals(2, sabaQueues(2), "a killed agent leaves the plan on the NIC");
            agent(2);
            await(() -> agent("h2").path("connected").asBoolean() && agent("h2").path("lag").asLong(-1) == 0,
                    () -> "the restarted agent re-syncs: " + status());
            assertEquals(2, sabaQueues(2), classes(2));

            // a partition: h2's link to the switch goes down, the agent's acknowledgements fail, its lease runs out
            sh.check("ip", "-n", spec.switchNamespace(), "link", "set", spec.switchPortDevice(2), "down");
            await(() -> sabaQueues(2) == 0, () -> "cut off, h2's agent restores its NIC after the lease: " + classes(2));
            sh.check("ip", "-n", spec.switchNamespace(), "link", "set", spec.switchPortDevice(2), "up");
            await(() -> sabaQueues(2) == 2, () -> "the partition heals and h2 gets its plan again: " + classes(2));

            kill(controller);
            await(() -> sabaQueues(2) == 0, () -> "the lease ends and h2's NIC is restored: " + classes(2));
            assertTrue(sh.check("tc", "-n", spec.hostNamespace(2), "qdisc", "show", "dev", "eth0")
                    .contains("htb 1: root"), "the testbed's own link shaping, which was there before, stays");

            saba(1, "controller", "--config", config.toString());
            await(() -> sabaQueues(2) == 2, () -> "the restarted controller's plan reaches h2 again: " + classes(2));
            await(() -> agentsConnected() == 2, () -> "both agents reconnect: " + status());
        } finally {
            for (Process p : started) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            tb.down(spec.name());
            sh.run(List.of("ip", "link", "del", "sabaagt0"));
        }
    }

    /** A link from this (the root) namespace into h1, for the test's own calls: agents never use it. */
    private void sideLink() {
        sh.run(List.of("ip", "link", "del", "sabaagt0"));
        sh.check("ip", "link", "add", "sabaagt0", "type", "veth", "peer", "name", "side0", "netns",
                spec.hostNamespace(1));
        sh.check("ip", "addr", "add", SIDE + "1/30", "dev", "sabaagt0");
        sh.check("ip", "link", "set", "sabaagt0", "up");
        sh.check("ip", "-n", spec.hostNamespace(1), "addr", "add", SIDE + "2/30", "dev", "side0");
        sh.check("ip", "-n", spec.hostNamespace(1), "link", "set", "side0", "up");
    }

    private Path controllerConfig(Path topology) throws IOException {
        Path table = Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath().normalize();
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, String.join("\n",
                "listen: 0.0.0.0:7070",
                "http: 0.0.0.0:7071",
                "topology: {file: " + topology + ", host-queues: 4}",
                "table: " + table,
                "backend: agents",
                "lease-timeout-seconds: 600",
                "journal-dir: " + dir.resolve("journal"),
                ""));
        return config;
    }

    private Process agent(int host) throws IOException {
        return saba(host, "agent", "--controller", spec.address(1) + ":7070", "--host", spec.hostName(host),
                "--nic", "eth0@100mbit", "--state-dir", dir.resolve("agent-h" + host).toString(),
                "--lease-seconds", "3");
    }

    /** {@code saba ARGS} in host i's namespace, its output kept in the temporary directory. */
    private Process saba(int host, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", spec.hostNamespace(host),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx192m", "-cp",
                System.getProperty("java.class.path"), SabaCli.class.getName()));
        cmd.addAll(List.of(args));
        String log = args[0] + "-h" + host + "-" + started.size();
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve(log + ".out").toFile())
                .redirectError(dir.resolve(log + ".err").toFile()).start();
        started.add(p);
        return p;
    }

    private static void kill(Process p) throws InterruptedException {
        p.destroyForcibly(); // SIGKILL: `ip netns exec` replaced itself with the JVM
        p.waitFor(10, TimeUnit.SECONDS);
        assertFalse(p.isAlive());
    }

    private String classes(int host) {
        return sh.check("tc", "-n", spec.hostNamespace(host), "class", "show", "dev", "eth0");
    }

    /** Saba's queue classes (1:20 and up) on host i's NIC. */
    private long sabaQueues(int host) {
        return classes(host).lines().filter(l -> l.matches("class htb 1:[23][0-9a-f] .*")).count();
    }

    /** /status.json, read from inside h1 (where the controller's HTTP port is). */
    private String status() {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + SIDE
                    + "2:7071/status.json")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "unreachable: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private JsonNode agent(String host) {
        try {
            for (JsonNode a : new ObjectMapper().readTree(status()).path("fabric").path("agents")) {
                if (a.path("host").asText().equals(host)) {
                    return a;
                }
            }
        } catch (IOException e) {
            // not up yet
        }
        return new ObjectMapper().createObjectNode();
    }

    private long agentsConnected() {
        long n = 0;
        for (String h : List.of("h2", "h3")) {
            n += agent(h).path("connected").asBoolean() ? 1 : 0;
        }
        return n;
    }

    /** Waits until {@code done}; on timeout fails with {@code what}, computed then, and where the logs are. */
    private void await(BooleanSupplier done, java.util.function.Supplier<String> what) {
        Awaitility.await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertTrue(done.getAsBoolean(), () -> what.get() + "\nlogs in " + dir));
    }
}
