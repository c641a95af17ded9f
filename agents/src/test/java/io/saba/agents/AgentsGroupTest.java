package io.saba.agents;

import static io.saba.agents.NetnsFixture.HOST;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.saba.agents.controller.AgentsBackend;
import io.saba.agents.host.HostAgent;
import io.saba.controller.fabric.AgentStatus;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.controller.group.GroupSettings;
import io.saba.controller.group.OwnershipListener;
import io.saba.controller.group.ZkControllerGroup;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.Mutation;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topology;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentsGrpc;
import io.saba.proto.v1.WatchPlansRequest;
import io.saba.wire.ConnectionKey;
import io.saba.wire.DscpMap;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host agents served by a controller group: a real ZooKeeper server, two members with {@code backend: agents} on
 * loopback gRPC splitting the switch and the two hosts (the topology manages the hosts' NICs), and a real host
 * agent applying its plans with tc to a veth in a network namespace. The host {@code h1} is held by one member at a
 * time; its agent is served only there, and follows it when it moves.
 */
class AgentsGroupTest {
    /** How long the group may take to settle or hand a host over (sessions of 3 s, on a loaded 2-core machine). */
    private static final Duration CONVERGE = Duration.ofSeconds(30);
    static final Duration SESSION = Duration.ofSeconds(3);
    /** The group's root in ZooKeeper. */
    static final String NAMESPACE = "saba-agents";
    private static final PortId NIC = new PortId(HOST, 1);
    private static final long NIC_BPS = 100_000_000L;
    private static final Pattern CLASS = Pattern.compile("class htb 1:([0-9a-f]+) .*?rate ([0-9.]+)([KMG]?)bit");

    @TempDir
    Path state;
    private NetnsFixture ns;
    private TestingServer zk;
    private final List<Member> members = new ArrayList<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    /** One controller of the group: its agents backend, its membership, the controller itself. */
    private final class Member {
        final String id;
        final AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
        final ZkControllerGroup group;
        final EmbeddedController controller;
        boolean closed;

        Member(String id) {
            this.id = id;
            this.group = new ZkControllerGroup(new GroupSettings(zk.getConnectString(), NAMESPACE, SESSION, id),
                    topology(), new OwnershipListener() {
                        @Override
                        public void started(String member, String node, long nanos) {
                        }

                        @Override
                        public void stopped(String member, String node, long nanos) {
                        }
                    });
            this.controller = EmbeddedController.builder().topology(topology()).table(catalog())
                    .backend(backend, true).group(group).listen(new InetSocketAddress("127.0.0.1", 0))
                    .http(new InetSocketAddress("127.0.0.1", 0)).build();
            controller.start();
        }

        Optional<AgentStatus> agent() {
            return backend.agents().stream().filter(a -> a.host().equals(HOST)).findFirst();
        }

        boolean holdsHost() {
            return group.hostsProgramming().contains(HOST);
        }

        void close() {
            if (!closed) {
                closed = true;
                controller.close();
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        ns = new NetnsFixture(); // skips the test without root and tc
        zk = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 250, 200), true);
        members.add(new Member("m0"));
        members.add(new Member("m1"));
        awaitSettled();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        members.forEach(Member::close);
        if (zk != null) {
            zk.close();
        }
        if (ns != null) {
            ns.close();
        }
    }

    /** s0 with h1 and h2 (10.9.0.1, 10.9.0.2), each host's NIC managed with 4 queues. */
    static TopologyResolver topology() {
        Topology t = Topology.builder().switchNode("s0", 8).host("h1").host("h2").link("s0", 1, "h1", 1, 10)
                .link("s0", 2, "h2", 1, 10).build();
        return new TopologyResolver(t, Map.of("h1", List.of("10.9.0.1"), "h2", List.of("10.9.0.2")))
                .withHostEgress(4);
    }

    static ModelCatalog catalog() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        m.put("lr", SensitivityModel.of(5, -8, 4));
        m.put("sort", SensitivityModel.of(1.5, -0.5));
        return new ModelCatalog(m);
    }

    private List<Member> live() {
        return members.stream().filter(m -> !m.closed).toList();
    }

    /** Every live member sees them all, and h1 is held by exactly the member the split means. */
    private void awaitSettled() {
        NetnsFixture.await(CONVERGE, () -> {
            List<Member> live = live();
            String meant = live.get(0).group.view().hostTargets().get(HOST);
            return meant != null && live.stream().allMatch(m -> m.group.view().members().size() == live.size()
                    && meant.equals(m.group.view().hostTargets().get(HOST)) && m.holdsHost() == m.id.equals(meant));
        }, () -> "the group settles: " + live().stream().map(m -> m.group.view().toString()).toList());
    }

    private Member owner() {
        return live().stream().filter(Member::holdsHost).findFirst().orElseThrow();
    }

    private Member other() {
        return live().stream().filter(m -> !m.holdsHost()).findFirst().orElseThrow();
    }

    private static void register(Member m, String app, String workload) {
        await("member " + m.id + " registers " + app).atMost(CONVERGE).until(() -> {
            try {
                m.controller.api().register("", new Mutation.Register(app, workload, "test", "u", 0, ""));
                return true;
            } catch (ControllerException e) {
                assertEquals(ControllerException.Kind.UNAVAILABLE, e.kind(), e.getMessage());
                return false;
            }
        });
    }

    /** A connection from h1 to h2: it crosses h1's NIC. */
    private static void open(Member m, String app, int srcPort) {
        m.controller.api().connectionEvent("", new Mutation.Opened(app, new ConnectionKey("10.9.0.1", srcPort,
                "10.9.0.2", 7337, Transport.TCP), 1));
    }

    private HostAgent agent(List<String> controllers) {
        HostAgent a = HostAgent.start(new io.saba.agents.host.AgentSettings(controllers, HOST,
                List.of(io.saba.agents.host.NicSpec.parse("x@100mbit")), null, state, Duration.ofSeconds(30),
                NetnsFixture.NS), ns.sh);
        toClose.add(a);
        return a;
    }

    /** Saba's queue classes on the NIC: minor → rate, bit/s. */
    private Map<Integer, Long> sabaClasses() {
        Map<Integer, Long> out = new TreeMap<>();
        Matcher m = CLASS.matcher(ns.show("class", "x"));
        while (m.find()) {
            int minor = Integer.parseInt(m.group(1), 16);
            if (minor >= HtbPlan.FIRST_QUEUE_MINOR) {
                double unit = switch (m.group(3)) {
                    case "K" -> 1e3;
                    case "M" -> 1e6;
                    case "G" -> 1e9;
                    default -> 1;
                };
                out.put(minor, Math.round(Double.parseDouble(m.group(2)) * unit));
            }
        }
        return out;
    }

    /**
     * Whether the NIC holds exactly the classes the plan makes on a 100 Mbit/s link (tc rounds rates, hence the
     * tolerance), and nothing else of Saba's.
     */
    private boolean nicHolds(PortAllocation plan) {
        Map<Integer, Long> expected = new TreeMap<>();
        HtbPlan.of(plan, NIC_BPS, 1.0, DscpMap.classSelectors()).queues()
                .forEach(c -> expected.put(c.minor(), c.rateBps()));
        Map<Integer, Long> found = sabaClasses();
        return !expected.isEmpty() && found.keySet().equals(expected.keySet()) && expected.entrySet().stream()
                .allMatch(e -> Math.abs(found.get(e.getKey()) - e.getValue()) <= Math.max(2_000, e.getValue() / 100));
    }

    /** The member's agent of h1 acknowledged the member's current plan for h1, and the NIC holds that plan. */
    private boolean resynced(Member m) {
        PortAllocation planned = m.controller.controller().recomputer().current().get(NIC);
        Optional<AgentStatus> a = m.agent();
        return planned != null && a.isPresent() && a.get().connected() && a.get().planVersion() > 0
                && a.get().lag() == 0 && a.get().ports() == 1 && nicHolds(planned);
    }

    private String describe(Member m) {
        return m.id + " holds " + m.group.hostsProgramming() + ", agent " + m.agent() + ", plan "
                + m.controller.controller().recomputer().current().get(NIC) + "; NIC " + sabaClasses();
    }

    private static JsonNode statusJson(Member m) throws Exception {
        return new ObjectMapper().readTree(NetnsFixture.page(m.controller, "/status.json"));
    }

    /**
     * Two applications send from h1; the member holding h1 leaves (closed: it hands h1 over) and one application
     * leaves at once, while h1 is changing hands. The agent, which lists the member that does not hold h1 first, is
     * refused there and served by the holder, then follows h1 to the member that takes it over and ends up with exactly
     * the group's plan: the departed application's class is gone from the NIC, and once nothing crosses h1's NIC
     * nothing of Saba's is left on it.
     */
    @Test
    void anAgentFollowsItsHostToTheMemberThatTakesItOver() throws Exception {
        Member owner = owner();
        Member other = other();
        register(owner, "a1", "lr");
        register(owner, "a2", "sort");
        open(owner, "a1", 40_001);
        open(owner, "a2", 40_002);
        HostAgent agent = agent(List.of(other.controller.target(), owner.controller.target()));
        NetnsFixture.await(CONVERGE, () -> resynced(owner) && appsAtNic(owner).equals(java.util.Set.of("a1", "a2")),
                () -> "the holder serves the agent: " + describe(owner));
        assertEquals(2, sabaClasses().size(), "lr and sort have a queue each on h1's NIC: " + sabaClasses());
        assertTrue(other.agent().isEmpty(), "the other member does not show h1's agent: " + other.backend.agents());
        JsonNode otherStatus = statusJson(other);
        assertEquals("[]", otherStatus.path("fabric").path("agents_missing").toString(), otherStatus.toString());
        assertEquals(owner.id, otherStatus.path("group").path("host_targets").path(HOST).asText(),
                otherStatus.path("group").toString());
        JsonNode ownerStatus = statusJson(owner);
        assertEquals(HOST, ownerStatus.path("fabric").path("agents").path(0).path("host").asText(),
                ownerStatus.toString());
        assertEquals("[\"" + HOST + "\"]", ownerStatus.path("group").path("hosts_programming").toString());

        long t0 = System.nanoTime();
        owner.close();
        other.controller.api().deregister("", "a1"); // while h1 changes hands
        NetnsFixture.await(CONVERGE, other::holdsHost, () -> "the other member takes h1: " + describe(other));
        long taken = System.nanoTime();
        NetnsFixture.await(CONVERGE, () -> resynced(other) && appsAtNic(other).equals(java.util.Set.of("a2")),
                () -> "the agent re-syncs with the member that took h1, a1's class gone: " + describe(other));
        long resynced = System.nanoTime();
        System.out.printf("hand-over of %s: taken over after %d ms, agent re-synced after %d ms%n", HOST,
                TimeUnit.NANOSECONDS.toMillis(taken - t0), TimeUnit.NANOSECONDS.toMillis(resynced - t0));
        assertTrue(agent.connected());
        assertEquals(1, sabaClasses().size(), "only sort's queue is left: " + sabaClasses());

        other.controller.api().deregister("", "a2");
        NetnsFixture.await(CONVERGE, () -> !ns.show("qdisc", "x").contains("htb")
                        && other.agent().map(a -> a.connected() && a.lag() == 0 && a.ports() == 0).orElse(false),
                () -> "nothing the group does not plan stays on the NIC: " + ns.show("qdisc", "x") + ", "
                        + other.agent());
    }

    /**
     * The member holding h1 is killed with -9 in its own JVM: no hand-over, its claim on h1 stays until ZooKeeper
     * expires its session. The agent's stream breaks, the members left refuse it until one of them takes h1 over, and
     * then the agent re-syncs with exactly that member's plan.
     */
    @Test
    @org.junit.jupiter.api.Timeout(180)
    void anAgentFollowsItsHostWhenItsHolderIsKilled() throws Exception {
        // "killed-2" outscores m0 and m1 for h1 in the hosts' split (rendezvous hashing, the same in every JVM)
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), GroupMemberProcess.class.getName(), zk.getConnectString(),
                "killed-2").redirectErrorStream(true).start();
        try {
            java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(
                    holder.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            String target = null;
            while (target == null) {
                String line = out.readLine();
                if (line == null) {
                    break;
                }
                if (line.startsWith("target ")) {
                    target = line.substring("target ".length());
                }
            }
            assertNotNull(target, "the member in its own JVM started");
            Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "drain-killed-2");
            drain.setDaemon(true);
            drain.start();
            Member m0 = members.get(0);
            NetnsFixture.await(CONVERGE, () -> "killed-2".equals(m0.group.view().hostTargets().get(HOST))
                    && live().stream().noneMatch(Member::holdsHost), () -> "killed-2 takes h1: " + m0.group.view());
            register(m0, "a1", "lr");
            open(m0, "a1", 40_001);
            HostAgent agent = agent(List.of(members.get(0).controller.target(), members.get(1).controller.target(),
                    target));
            NetnsFixture.await(CONVERGE, () -> agent.connected() && agent.appliedVersion() > 0
                    && sabaClasses().size() == 1, () -> "killed-2 serves the agent: NIC " + sabaClasses());

            long t0 = System.nanoTime();
            holder.destroyForcibly(); // SIGKILL
            holder.waitFor();
            NetnsFixture.await(CONVERGE, () -> live().stream().anyMatch(Member::holdsHost),
                    () -> "a member left takes h1 once the killed one's session expires: " + m0.group.view());
            long taken = System.nanoTime();
            Member now = owner();
            NetnsFixture.await(CONVERGE, () -> resynced(now) && appsAtNic(now).equals(java.util.Set.of("a1")),
                    () -> "the agent re-syncs with the member that took h1: " + describe(now));
            long resynced = System.nanoTime();
            System.out.printf("crash of the holder of %s: taken over after %d ms, agent re-synced after %d ms%n", HOST,
                    TimeUnit.NANOSECONDS.toMillis(taken - t0), TimeUnit.NANOSECONDS.toMillis(resynced - t0));
        } finally {
            holder.destroyForcibly();
            holder.waitFor();
        }
    }

    /** The applications the member's plan for h1's NIC holds. */
    private static java.util.Set<String> appsAtNic(Member m) {
        PortAllocation a = m.controller.controller().recomputer().current().get(NIC);
        return a == null ? java.util.Set.of() : a.appWeights().keySet();
    }

    /**
     * ZooKeeper goes away: every member is cut off (SUSPENDED) and stops programming, so the holder of h1 ends its
     * agent's stream and no member serves the agent, which keeps its NIC's plan meanwhile; when ZooKeeper is back the
     * holder takes h1 again, pushes it whole and the agent re-syncs.
     */
    @Test
    void aMemberCutOffFromZooKeeperLetsTheAgentGoAndServesItAgainWhenBack() throws Exception {
        Member owner = owner();
        Member other = other();
        register(owner, "a1", "lr");
        open(owner, "a1", 40_001);
        HostAgent agent = agent(List.of(owner.controller.target(), other.controller.target()));
        NetnsFixture.await(CONVERGE, () -> resynced(owner), () -> "the holder serves the agent: " + describe(owner));

        zk.stop();
        NetnsFixture.await(CONVERGE, () -> !agent.connected() && owner.agent().isEmpty() && other.agent().isEmpty(),
                () -> "cut off, no member serves h1's agent: " + describe(owner) + "; " + describe(other));
        assertTrue(ns.show("qdisc", "x").contains("htb"), "the NIC keeps its plan meanwhile (the agent's lease)");

        zk.restart();
        awaitSettled();
        Member holder = owner();
        NetnsFixture.await(CONVERGE, () -> resynced(holder) && agent.connected(),
                () -> "the agent re-syncs once the group is back: " + describe(holder));
    }

    /**
     * A member that does not hold h1 refuses its agent (naming the member that does) rather than serve a plan it does
     * not own, and the holder counts h1's agent as missing while the other member does not.
     */
    @Test
    void aMemberThatDoesNotHoldTheHostRefusesItsAgent() throws Exception {
        Member owner = owner();
        Member other = other();
        register(owner, "a1", "lr");
        open(owner, "a1", 40_001);
        NetnsFixture.await(CONVERGE, () -> owner.agent().map(AgentStatus::missing).orElse(false),
                () -> "the holder has a plan for h1 and no agent: " + owner.agent());

        ManagedChannel channel = Grpc.newChannelBuilder(other.controller.target(), InsecureChannelCredentials.create())
                .build();
        try {
            AgentsGrpc.AgentsBlockingStub stub = AgentsGrpc.newBlockingStub(channel);
            StatusRuntimeException watch = assertThrows(StatusRuntimeException.class, () -> stub
                    .withDeadlineAfter(5, TimeUnit.SECONDS)
                    .watchPlans(WatchPlansRequest.newBuilder().setHost(HOST).build()).hasNext());
            assertEquals(Status.Code.FAILED_PRECONDITION, watch.getStatus().getCode(), watch.toString());
            assertTrue(watch.getStatus().getDescription().contains("member " + owner.id + " does"),
                    watch.getStatus().getDescription());
            StatusRuntimeException announce = assertThrows(StatusRuntimeException.class, () -> stub
                    .withDeadlineAfter(5, TimeUnit.SECONDS).announce(AgentAnnounce.newBuilder().setHost(HOST).build()));
            assertEquals(Status.Code.FAILED_PRECONDITION, announce.getStatus().getCode(), announce.toString());
        } finally {
            channel.shutdownNow();
        }

        HostAgent agent = agent(List.of(other.controller.target()));
        await("an agent pointed only at a member that does not hold h1 gets no plan").during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(10)).until(() -> !agent.connected() && agent.appliedVersion() == 0
                        && !ns.show("qdisc", "x").contains("htb"));
        assertTrue(other.agent().isEmpty(), other.backend.agents().toString());
        assertEquals("[]", statusJson(other).path("fabric").path("agents_missing").toString());
        assertEquals("[\"" + HOST + "\"]", statusJson(owner).path("fabric").path("agents_missing").toString());
        assertNotNull(owner.agent().orElse(null));
        assertFalse(owner.agent().get().connected());
    }
}
