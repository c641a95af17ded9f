package io.saba.agents;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.saba.agents.controller.AgentsBackend;
import io.saba.agents.host.AgentSettings;
import io.saba.agents.host.HostAgent;
import io.saba.agents.host.NicSpec;
import io.saba.controller.fabric.linux.RootAssumptions;
import io.saba.controller.server.EmbeddedController;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.process.ProcessRunner;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * A host's NIC for the agent tests: a veth pair {@code x}/{@code y} in a private network namespace, and a controller
 * with the agents backend on loopback.
 */
final class NetnsFixture implements AutoCloseable {
    static final String NS = "saba-jt-agent";
    static final String HOST = "h1";

    final ProcessRunner sh = new ProcessRunner();

    NetnsFixture() {
        RootAssumptions.assumeNetnsRoot("tc");
        sh.run(List.of("ip", "netns", "del", NS)); // a leftover from a killed run
        sh.check("ip", "netns", "add", NS);
        sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
        sh.check("ip", "-n", NS, "link", "set", "x", "up");
        sh.check("ip", "-n", NS, "link", "set", "y", "up");
    }

    static EmbeddedController controller(AgentsBackend backend, int port, Map<String, String> tenantTokens,
                                         Map<String, String> agentTokens) {
        return controller(backend, port, tenantTokens, agentTokens, 10);
    }

    /** A controller whose topology's links run at {@code gbps}. */
    static EmbeddedController controller(AgentsBackend backend, int port, Map<String, String> tenantTokens,
                                         Map<String, String> agentTokens, double gbps) {
        io.saba.core.topology.Topology t = io.saba.core.topology.Topology.builder().switchNode("s0", 8).host("h1")
                .host("h2").link("s0", 1, "h1", 1, gbps).link("s0", 2, "h2", 1, gbps).build();
        EmbeddedController c = EmbeddedController.builder().topology(new io.saba.controller.topology.TopologyResolver(
                        t, Map.of("h1", List.of("10.9.0.1"), "h2", List.of("10.9.0.2"))))
                .listen(new InetSocketAddress("127.0.0.1", port)).http(new InetSocketAddress("127.0.0.1", 0))
                .backend(backend, true).tokens(tenantTokens)
                .agentTokens(agentTokens).build();
        c.start();
        return c;
    }

    static EmbeddedController controller(AgentsBackend backend, int port) {
        return controller(backend, port, Map.of(), Map.of());
    }

    HostAgent agent(EmbeddedController c, Path state, Duration lease, String... nics) {
        return agent(c.target(), state, lease, nics);
    }

    HostAgent agent(String controller, Path state, Duration lease, String... nics) {
        return HostAgent.start(new AgentSettings(List.of(controller), HOST,
                java.util.Arrays.stream(nics).map(NicSpec::parse).toList(), null, state, lease, NS), sh);
    }

    /** A status page of the controller, read over HTTP. */
    static String page(EmbeddedController c, String path) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                            + c.httpAddress().getPort() + path)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                fail(path + " answered " + r.statusCode() + ": " + r.body());
            }
            return r.body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code tc class|qdisc show dev DEV} in the namespace. */
    String show(String what, String dev) {
        return sh.check("tc", "-n", NS, what, "show", "dev", dev);
    }

    static PortAllocation alloc(int port, double... weights) {
        return alloc(new PortId(HOST, port), weights);
    }

    static PortAllocation alloc(PortId port, double... weights) {
        Map<Integer, Integer> levels = new java.util.HashMap<>();
        for (int q = 0; q < weights.length; q++) {
            levels.put(q + 1, q);
        }
        return new PortAllocation(port, levels, weights, Map.of());
    }

    /** Waits until {@code done}; on timeout fails with {@code what}, computed then (the state it describes). */
    static void await(Duration limit, BooleanSupplier done, java.util.function.Supplier<String> what) {
        Awaitility.await().atMost(limit).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertTrue(done.getAsBoolean(), what));
    }

    @Override
    public void close() {
        sh.run(List.of("ip", "netns", "del", NS));
    }
}
