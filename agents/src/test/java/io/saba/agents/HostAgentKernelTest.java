package io.saba.agents;

import static io.saba.agents.NetnsFixture.HOST;
import static io.saba.agents.NetnsFixture.alloc;
import static io.saba.agents.NetnsFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.agents.controller.AgentsBackend;
import io.saba.agents.host.HostAgent;
import io.saba.controller.fabric.AgentStatus;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.server.EmbeddedController;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agents backend in a controller on loopback and a host agent applying its plans with real tc to a veth in a
 * network namespace: what is on the device is read back with {@code tc class show}.
 */
class HostAgentKernelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final PortId PORT1 = new PortId(HOST, 1);

    @TempDir
    Path state;
    private NetnsFixture ns;

    @BeforeEach
    void namespace() {
        ns = new NetnsFixture();
    }

    @AfterEach
    void removeNamespace() {
        if (ns != null) {
            ns.close();
        }
    }

    private static AgentStatus status(AgentsBackend b) {
        return b.agents().stream().filter(a -> a.host().equals(HOST)).findFirst().orElseThrow();
    }

    private static void awaitConnected(AgentsBackend b) {
        await(WAIT, () -> b.agents().stream().anyMatch(a -> a.host().equals(HOST) && a.connected()),
                () -> "the agent connects: " + b.agents());
    }

    @Test
    void aQueueOfUntaggedTrafficIsNoDrift() {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0);
             HostAgent agent = ns.agent(c, state, Duration.ofSeconds(30), "x@100mbit")) {
            awaitConnected(backend);
            // level 0 (untagged) in queue 0: it has no DSCP filter, so no class of its own; Saba's classes are the
            // queues 1 and 2 (1:21, 1:22), as the controller plans when an application of level 0 shares the port
            PortAllocation a = new PortAllocation(PORT1, Map.of(0, 0, 1, 1, 2, 2), new double[] {0.1, 0.5, 0.3},
                    Map.of());
            assertEquals(Set.of(PORT1), backend.apply(List.of(a)).applied());
            String classes = ns.show("class", "x");
            assertTrue(classes.contains("class htb 1:21 ") && classes.contains("class htb 1:22 ")
                    && !classes.contains("class htb 1:20 "), classes);
            // counters and drift come in the same acknowledgement
            await(WAIT, () -> backend.queueBytes(PORT1).keySet().equals(Set.of(1, 2)),
                    () -> "the agent reports the queues' counters: " + backend.queueBytes(PORT1));
            assertTrue(backend.drift().isEmpty(), "the NIC holds the plan: " + backend.drift());
        }
    }

    @Test
    void appliesThePlanOnTheNicAcknowledgesItAndReportsCounters() {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0);
             HostAgent agent = ns.agent(c, state, Duration.ofSeconds(30), "x@100mbit")) {
            awaitConnected(backend);
            ApplyResult r = backend.apply(List.of(alloc(1, 0.6, 0.3)));
            assertEquals(Set.of(PORT1), r.applied(), r.toString());
            String classes = ns.show("class", "x");
            assertTrue(classes.contains("class htb 1:20 parent 1:1 leaf 20: prio 0 rate 60Mbit ceil 100Mbit"),
                    classes);
            assertTrue(classes.contains("class htb 1:21 parent 1:1 leaf 21: prio 0 rate 30Mbit ceil 100Mbit"),
                    classes);
            AgentStatus s = status(backend);
            assertEquals(s.planVersion(), s.ackedVersion(), s.toString());
            assertEquals(0, s.lag());
            assertEquals(s.planVersion(), agent.appliedVersion());
            await(WAIT, () -> backend.queueBytes(PORT1).keySet().containsAll(Set.of(0, 1)),
                    () -> "the agent reports both queues' counters: " + backend.queueBytes(PORT1));
            // the controller's status shows the agent
            assertEquals(List.of(s.host()), c.controller().status(false).fabric().agents().stream()
                    .map(AgentStatus::host).toList());

            assertTrue(backend.drift().isEmpty(), backend.drift().toString());
            assertTrue(NetnsFixture.page(c, "/status").contains("checked every 1 s"), "the page says agents look");
            // someone else deletes Saba's root: the agent reports it as drift on the controller's status
            ns.sh.check("tc", "-n", NetnsFixture.NS, "qdisc", "del", "dev", "x", "root");
            await(WAIT, () -> backend.drift().getOrDefault(PORT1, "").contains("the NIC holds Saba's queues []"),
                    () -> "drift reported: " + backend.drift());
            assertTrue(c.controller().status(false).fabric().drift().containsKey(PORT1));
            assertEquals(Set.of(PORT1), backend.apply(List.of(alloc(1, 0.6, 0.3))).applied(),
                    "an unchanged plan is acknowledged without being rewritten");
            assertEquals(Set.of(PORT1), backend.apply(List.of(alloc(1, 0.5, 0.3))).applied());
            await(WAIT, () -> backend.drift().isEmpty(), () -> "a new plan rewrites the NIC: " + backend.drift());
            assertTrue(ns.show("class", "x").contains("rate 50Mbit"), ns.show("class", "x"));

            assertEquals(Set.of(PORT1), backend.release(Set.of(PORT1)).applied());
            assertFalse(ns.show("qdisc", "x").contains("htb"), ns.show("qdisc", "x"));
        }
    }

    @Test
    void refusesAPortWhoseDeviceDoesNotExistAndAppliesTheRest() throws Exception {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0);
             HostAgent agent = ns.agent(c, state, Duration.ofSeconds(30), "1=x@100mbit", "2=nosuch0@100mbit")) {
            awaitConnected(backend);
            ApplyResult r = backend.apply(List.of(alloc(1, 0.5, 0.4), alloc(2, 0.5, 0.4), alloc(3, 0.5, 0.4)));
            assertEquals(Set.of(PORT1), r.applied(), r.toString());
            String missing = r.failed().get(new PortId(HOST, 2));
            assertTrue(missing != null && missing.contains("refused") && missing.contains("nosuch0"), r.toString());
            String unmapped = r.failed().get(new PortId(HOST, 3));
            assertTrue(unmapped != null && unmapped.contains("no NIC of this agent is port 3"), r.toString());
            assertTrue(ns.show("class", "x").contains("rate 50Mbit"), ns.show("class", "x"));
            String lastError = status(backend).lastError();
            assertTrue(lastError != null && lastError.contains("nosuch0"), String.valueOf(lastError));
            assertEquals(lastError, c.controller().status(false).fabric().agents().get(0).lastError());
            com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(NetnsFixture.page(c, "/status.json")).path("fabric").path("agents").path(0);
            assertEquals(HOST, json.path("host").asText(), json.toString());
            assertTrue(json.path("connected").asBoolean(), json.toString());
            assertEquals(0, json.path("lag").asLong(), json.toString());
            assertTrue(json.path("last_error").asText().contains("nosuch0"), json.toString());
            String metrics = NetnsFixture.page(c, "/metrics");
            assertTrue(metrics.contains("saba_agent_connected{host=\"h1\"} 1.0"), metrics);
            assertTrue(metrics.contains("saba_agent_error{host=\"h1\"} 1.0"), metrics);
            assertTrue(metrics.contains("saba_agents_missing 0"), metrics);
            String page = NetnsFixture.page(c, "/status");
            assertTrue(page.contains("Host agents") && page.contains("nosuch0"), page);
        }
    }

    /**
     * A NIC given without a rate whose speed the agent cannot read (in a named namespace): shaped at the port's rate
     * in the controller's topology, which the plan carries, so the weights are fractions of the link they were
     * computed for.
     */
    @Test
    void aNicWithoutAKnownSpeedIsShapedAtTheTopologysRate() {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0, Map.of(), Map.of(), 0.1);
             HostAgent agent = ns.agent(c, state, Duration.ofSeconds(30), "x")) {
            awaitConnected(backend);
            ApplyResult r = backend.apply(List.of(alloc(1, 0.6, 0.3)));
            assertEquals(Set.of(PORT1), r.applied(), r.toString());
            String classes = ns.show("class", "x");
            assertTrue(classes.contains("rate 60Mbit ceil 100Mbit"), classes);
        }
    }

    /**
     * A veth of the machine's own namespace reports 10 Gbit/s whatever shapes its link; the topology's lower rate
     * wins, as a rate above the kernel's speed would not.
     */
    @Test
    void theLowerOfTheKernelsSpeedAndTheTopologysRateIsShaped() {
        String dev = "sabajtr2";
        try {
            long speed = ownVeth(dev, "sabajtr3");
            org.junit.jupiter.api.Assumptions.assumeTrue(speed > 100_000_000L, "the kernel reports no speed above"
                    + " 100 Mbit/s for a veth");
            AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
            try (EmbeddedController c = NetnsFixture.controller(backend, 0, Map.of(), Map.of(), 0.1);
                 HostAgent agent = HostAgent.start(new io.saba.agents.host.AgentSettings(List.of(c.target()), HOST,
                         List.of(io.saba.agents.host.NicSpec.parse(dev)), null, state, Duration.ofSeconds(30),
                         null), ns.sh)) {
                awaitConnected(backend);
                ApplyResult r = backend.apply(List.of(alloc(1, 0.6, 0.3)));
                assertEquals(Set.of(PORT1), r.applied(), r.toString());
                String classes = ns.sh.check("tc", "class", "show", "dev", dev);
                assertTrue(classes.contains("rate 60Mbit ceil 100Mbit"), classes);
            }
        } finally {
            ns.sh.run(List.of("ip", "link", "del", dev));
        }
    }

    /** A fresh veth pair in the machine's own namespace, {@code dev} up; returns its speed as the kernel reports it. */
    private long ownVeth(String dev, String peer) {
        ns.sh.run(List.of("ip", "link", "del", dev));
        ns.sh.check("ip", "link", "add", dev, "type", "veth", "peer", "name", peer);
        ns.sh.check("ip", "link", "set", dev, "up");
        return Long.parseLong(ns.sh.check("cat", "/sys/class/net/" + dev + "/speed").strip()) * 1_000_000L;
    }

    /** On a veth of the machine's own namespace, whose speed the kernel reports (10 Gbit/s). */
    @Test
    void refusesARateAboveTheNicsSpeedAndTakesTheKernelsSpeedOtherwise() {
        String dev = "sabajtr0";
        try {
            long speed = ownVeth(dev, "sabajtr1");
            org.junit.jupiter.api.Assumptions.assumeTrue(speed > 0, "the kernel reports no speed for a veth");
            AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
            try (EmbeddedController c = NetnsFixture.controller(backend, 0);
                 HostAgent agent = HostAgent.start(new io.saba.agents.host.AgentSettings(List.of(c.target()), HOST,
                         List.of(io.saba.agents.host.NicSpec.parse("1=" + dev + "@" + 2 * speed),
                                 io.saba.agents.host.NicSpec.parse("2=" + dev)), null, state, Duration.ofSeconds(30),
                         null), ns.sh)) {
                awaitConnected(backend);
                ApplyResult r = backend.apply(List.of(alloc(2, 0.5, 0.4)));
                assertEquals(Set.of(new PortId(HOST, 2)), r.applied(), r.toString());
                assertTrue(ns.sh.check("tc", "class", "show", "dev", dev).contains("ceil " + speed / 1_000_000_000L
                        + "Gbit"), ns.sh.check("tc", "class", "show", "dev", dev));
                backend.release(Set.of(new PortId(HOST, 2)));
                r = backend.apply(List.of(alloc(1, 0.5, 0.4)));
                String why = r.failed().get(PORT1);
                assertTrue(why != null && why.contains(dev + " is a " + speed + " bit/s link; it cannot hold "
                        + 2 * speed + " bit/s"), r.toString());
            }
        } finally {
            ns.sh.run(List.of("ip", "link", "del", dev));
        }
    }

    @Test
    void aPortOfAHostWithoutAgentFailsAndTheAgentConnectingLaterGetsThePlan() throws Exception {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0)) {
            ApplyResult r = backend.apply(List.of(alloc(1, 0.7, 0.2)));
            assertEquals("no agent connected for host h1", r.failed().get(PORT1), r.toString());
            assertTrue(status(backend).missing(), status(backend).toString());
            assertEquals("[\"h1\"]", new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(NetnsFixture.page(c, "/status.json")).path("fabric").path("agents_missing").toString());
            assertTrue(NetnsFixture.page(c, "/metrics").contains("saba_agents_missing 1"));
            assertTrue(NetnsFixture.page(c, "/status").contains("missing"));
            try (HostAgent agent = ns.agent(c, state, Duration.ofSeconds(30), "x@100mbit")) {
                await(WAIT, () -> ns.show("class", "x").contains("rate 70Mbit"),
                        () -> "the plan reaches the late agent: " + ns.show("class", "x"));
                await(WAIT, () -> status(backend).lag() == 0 && !status(backend).missing(),
                        () -> status(backend).toString());
            }
            assertFalse(ns.show("qdisc", "x").contains("htb"), "a stopped agent gives the NIC back");
        }
    }

    @Test
    void theLeaseRestoresTheOriginalAndAReconnectResyncs() {
        AgentsBackend first = new AgentsBackend(Duration.ofSeconds(2));
        EmbeddedController c = NetnsFixture.controller(first, 0);
        int port = c.address().getPort();
        try (HostAgent agent = ns.agent(c, state, Duration.ofSeconds(2), "x@100mbit")) {
            awaitConnected(first);
            assertTrue(first.apply(List.of(alloc(1, 0.6, 0.3))).ok());
            c.close();
            long closed = System.nanoTime();
            assertTrue(ns.show("qdisc", "x").contains("htb"), "the plan stays during the lease");
            await(WAIT, () -> !ns.show("qdisc", "x").contains("htb"),
                    () -> "the lease ends and the NIC is restored: " + ns.show("qdisc", "x"));
            assertTrue(System.nanoTime() - closed >= Duration.ofMillis(1800).toNanos(), "not before the lease");
            assertEquals(1, agent.restores());

            AgentsBackend second = new AgentsBackend(Duration.ofSeconds(2));
            try (EmbeddedController again = NetnsFixture.controller(second, port)) {
                awaitConnected(second);
                assertTrue(second.apply(List.of(alloc(1, 0.5, 0.4))).ok());
                assertTrue(ns.show("class", "x").contains("rate 40Mbit"), ns.show("class", "x"));
            }
        } finally {
            c.close();
        }
    }

    @Test
    void aKilledAgentsLeftoversAreResumedByTheNextAgent() throws Exception {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        try (EmbeddedController c = NetnsFixture.controller(backend, 0)) {
            killedAgentLeftPlan(c, backend);
            assertEquals("no agent connected for host h1", backend.apply(List.of(alloc(1, 0.2, 0.7))).failed()
                    .get(PORT1));
            try (HostAgent next = ns.agent(c, state, Duration.ofSeconds(30), "x@100mbit")) {
                await(WAIT, () -> ns.show("class", "x").contains("rate 20Mbit"),
                        () -> "the next agent converges to the controller's plan: " + ns.show("class", "x"));
                String classes = ns.show("class", "x");
                assertFalse(classes.contains("rate 60Mbit"), classes);
            }
            assertFalse(ns.show("qdisc", "x").contains("htb"), "the root the first agent created is removed");
        }
    }

    @Test
    void aKilledAgentsLeftoversAreRestoredWhenNoControllerComes() throws Exception {
        AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        EmbeddedController c = NetnsFixture.controller(backend, 0);
        String gone;
        try {
            killedAgentLeftPlan(c, backend);
            gone = c.target();
        } finally {
            c.close();
        }
        try (HostAgent next = ns.agent(gone, state, Duration.ofSeconds(1), "x@100mbit")) {
            await(WAIT, () -> !ns.show("qdisc", "x").contains("htb"),
                    () -> "the leftovers are restored after the lease: " + ns.show("qdisc", "x"));
            assertEquals(1, next.restores());
        }
    }

    /** An agent in its own JVM applies a plan and is killed with -9, leaving it on the NIC. */
    private void killedAgentLeftPlan(EmbeddedController c, AgentsBackend backend) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), AgentProcess.class.getName(), c.target(), HOST, "x@100mbit",
                state.toString(), "30", NetnsFixture.NS).inheritIO().start();
        try {
            awaitConnected(backend);
            assertTrue(backend.apply(List.of(alloc(1, 0.6, 0.3))).ok());
        } finally {
            child.destroyForcibly(); // SIGKILL
            child.waitFor();
        }
        assertEquals(137, child.exitValue());
        assertTrue(ns.show("class", "x").contains("rate 60Mbit"), "the killed agent's plan stays on the NIC");
        await(WAIT, () -> !status(backend).connected(), () -> "the controller sees the agent gone");
    }
}
