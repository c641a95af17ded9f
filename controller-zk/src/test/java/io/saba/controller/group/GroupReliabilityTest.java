package io.saba.controller.group;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.controller.GroupView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.PortId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * What a crash, an outage or a hand-over must not do to a controller group (issue #23, items 10–16), against real
 * ZooKeeper servers: stale ports on a member's status, applications expired although they kept heartbeating,
 * switches unprogrammed or passed around after an outage, ownership invisible from outside.
 */
class GroupReliabilityTest {
    private static final Duration CONVERGE = Duration.ofSeconds(60);

    /** Item 10: a member lists only the ports it programs, also after handing switches over. */
    @Test
    void portsHandedOverLeaveTheMembersStatus() throws Exception {
        try (GroupFixture g = new GroupFixture(1)) {
            GroupDriver d = new GroupDriver(g.targets(), 8);
            try {
                d.steps(60, 0);
                GroupFixture.Member first = g.members.get(0);
                await("m0 programs every switch and has pushed ports").atMost(CONVERGE).until(() ->
                        first.group.programming().size() == 20
                                && first.controller.api().status(false).ports().size() > 20);
                g.join("m1");
                g.join("m2");
                await("the switches are split among the three").atMost(CONVERGE).until(g::splitSettled);
                for (GroupFixture.Member m : g.members) {
                    m.controller.controller().recomputer().awaitQuiescent(Duration.ofSeconds(10));
                    Set<String> mine = m.group.programming();
                    Set<PortId> listed = m.controller.api().status(false).ports().keySet();
                    List<PortId> foreign = listed.stream().filter(p -> !mine.contains(p.node())).toList();
                    assertEquals(List.of(), foreign, "member " + m.id + " lists ports of switches it handed over");
                    assertTrue(m.controller.api().metrics().prometheus()
                            .contains("saba_ports_configured " + listed.size() + "\n"), "member " + m.id);
                }
                ControllerGroupTest.assertFenced(g);
            } finally {
                d.client.close();
            }
        }
    }

    /**
     * Item 11: an application that kept heartbeating is not expired by a ZooKeeper outage longer than its lease
     * (the lease is shorter than the session timeout). Its heartbeats go to a member that is not the leader, and
     * that member comes back last: the leader, back first, must neither miss renewals it acknowledged nor count the
     * outage against the lease.
     */
    @Test
    void anApplicationThatKeptHeartbeatingOutlivesAZooKeeperOutage() throws Exception {
        Duration lease = Duration.ofMillis(1500);
        assertTrue(lease.compareTo(GroupFixture.SESSION) < 0);
        try (GroupFixture g = new GroupFixture(3, lease)) {
            await("one leader").atMost(CONVERGE)
                    .until(() -> g.members.stream().filter(m -> m.group.isLeader()).count() == 1);
            GroupFixture.Member target = g.members.stream().filter(m -> !m.group.isLeader()).findFirst()
                    .orElseThrow();
            register(target, "beating", "lr");
            await("every member holds the application").atMost(CONVERGE).until(() -> g.members.stream()
                    .allMatch(m -> m.controller.controller().app("beating") != null));
            List<GroupFixture.Member> order = new ArrayList<>(g.members);
            order.remove(target);
            order.add(0, target); // the client's first address: the member that comes back last
            try (Heartbeats hb = new Heartbeats(order, "beating")) {
                Thread.sleep(lease.toMillis());
                g.members.forEach(GroupFixture.Member::partition);
                // longer than the lease and than the session: the servers expire every member's session
                Thread.sleep(GroupFixture.SESSION.toMillis() + 2_000);
                g.members.stream().filter(m -> m != target).forEach(GroupFixture.Member::heal);
                Thread.sleep(2_000);
                target.heal();
                await("the last member programs switches again").atMost(CONVERGE)
                        .until(() -> !target.group.programming().isEmpty());
                long okBefore = hb.ok();
                await("heartbeats are answered again").atMost(CONVERGE)
                        .until(() -> hb.ok() > okBefore + 3 || !hb.notFound().isEmpty());
                assertEquals(List.of(), hb.notFound(), "heartbeats answered NOT_FOUND");
            }
            for (GroupFixture.Member m : g.members) {
                assertTrue(m.controller.controller().app("beating") != null, "member " + m.id + " dropped it");
                assertEquals(0, m.controller.controller().metrics().leaseExpirations.sum(),
                        "leases expired at member " + m.id);
            }
        }
    }

    /** Item 11: cut off, a member does not deny an application registered at another member meanwhile. */
    @Test
    void aMemberCutOffDoesNotDenyAnApplicationRegisteredElsewhere() throws Exception {
        try (GroupFixture g = new GroupFixture(3)) {
            GroupFixture.Member cut = g.members.get(0);
            GroupFixture.Member other = g.members.get(1);
            await("m0 programs its share").atMost(CONVERGE).until(() -> !cut.group.programming().isEmpty());
            cut.partition();
            await("m0 noticed it is cut off").atMost(CONVERGE).until(() -> cut.group.programming().isEmpty());
            register(other, "late", "pr");
            ControllerException e = org.junit.jupiter.api.Assertions.assertThrows(ControllerException.class,
                    () -> cut.controller.api().heartbeat("", "late"));
            assertEquals(ControllerException.Kind.UNAVAILABLE, e.kind(), e.getMessage());
            cut.heal();
            await("m0 answers the heartbeat once back").atMost(CONVERGE).until(() -> {
                try {
                    cut.controller.api().heartbeat("", "late");
                    return true;
                } catch (ControllerException again) {
                    assertEquals(ControllerException.Kind.UNAVAILABLE, again.kind(), again.getMessage());
                    return false;
                }
            });
        }
    }

    /**
     * Item 12: after a ZooKeeper outage longer than the session timeout (every server down), the servers revive
     * the old sessions with their nodes for one more session timeout. Each member takes its switches back from its
     * own earlier session at once: every switch is programmed again while those sessions still linger (a probe
     * session of the same timeout, cut off for good, shows when they end), and by the member that held it before,
     * with no other member claiming it in between. An 8 s session here, so that the servers' restart and the
     * members' return fit in it on a loaded machine.
     */
    @Test
    void afterALongZooKeeperOutageEachMemberTakesItsSwitchesBackAtOnce() throws Exception {
        // long enough for the servers' restart and the members' return on a loaded machine (0.5 s ticks allow 10 s)
        Duration session = Duration.ofSeconds(8);
        try (GroupFixture g = new GroupFixture(3, Duration.ofSeconds(60), session, 500);
             ZkProxy probePath = new ZkProxy(g.zk.getInstances().iterator().next().getPort());
             CuratorFramework direct = CuratorFrameworkFactory.newClient(g.zk.getConnectString(),
                     new RetryOneTime(100))) {
            await("the switches are split").atMost(CONVERGE).until(g::splitSettled);
            Map<String, String> ownerBefore = new HashMap<>();
            g.members.forEach(m -> m.group.programming().forEach(sw -> ownerBefore.put(sw, m.id)));
            ZooKeeper probe = new ZooKeeper("127.0.0.1:" + probePath.port(),
                    (int) session.toMillis(), e -> { });
            await("the probe is connected").atMost(CONVERGE).until(() -> probe.getState().isConnected());
            probe.create("/probe", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            try {
                List<InstanceSpec> servers = new ArrayList<>(g.zk.getInstances());
                probePath.cut(); // the probe's session is never resumed: it ends when the servers expire it
                for (InstanceSpec s : servers) {
                    assertTrue(g.zk.killServer(s));
                }
                long outageStart = System.nanoTime();
                Thread.sleep(session.toMillis() + 1_500);
                List<Thread> restarts = new ArrayList<>();
                for (InstanceSpec s : servers) {
                    Thread t = new Thread(() -> {
                        try {
                            g.zk.restartServer(s);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    t.start();
                    restarts.add(t);
                }
                for (Thread t : restarts) {
                    t.join();
                }
                direct.start();
                await("every switch is programmed again").atMost(CONVERGE).until(() -> g.members.stream()
                        .mapToInt(m -> m.group.programming().size()).sum() == 20);
                boolean oldSessionsLinger = direct.checkExists().forPath("/probe") != null;
                assertTrue(oldSessionsLinger, "the switches were programmed again only once the servers had "
                        + "expired the sessions from before the outage");
                for (GroupFixture.Ownership o : g.ownership) {
                    if (o.started() && o.nanos() > outageStart) {
                        assertEquals(ownerBefore.get(o.sw()), o.member(), "switch " + o.sw()
                                + " went to another member after the outage");
                    }
                }
                ControllerGroupTest.assertFenced(g);
            } finally {
                probe.close(100);
            }
        }
    }

    /**
     * Item 12: a member restarted at once (killed, then started again with its id) is in the group under its new
     * session while its old session lingers. When the servers expire the old session, no other member claims its
     * switches: they go straight to the restarted member (before, its id vanished from the group for a moment and
     * the others claimed and re-pushed its switches).
     */
    @Test
    void aMemberRestartedAtOnceGetsItsSwitchesWithoutOthersClaimingThem() throws Exception {
        try (GroupFixture g = new GroupFixture(3)) {
            GroupFixture.Member m0 = g.members.get(0);
            await("the switches are split").atMost(CONVERGE).until(g::splitSettled);
            Set<String> itsSwitches = m0.group.programming();
            long crashed = System.nanoTime();
            Thread dying = m0.crash();
            m0.start(); // the same id at once; its old session lives until the servers expire it
            await("m0 programs its switches again").atMost(CONVERGE)
                    .until(() -> m0.group.programming().containsAll(itsSwitches));
            for (GroupFixture.Ownership o : g.ownership) {
                if (o.started() && o.nanos() > crashed && itsSwitches.contains(o.sw())) {
                    assertEquals("m0", o.member(), "switch " + o.sw() + " went to " + o.member()
                            + " while m0 restarted");
                }
            }
            dying.join(60_000);
            ControllerGroupTest.assertFenced(g);
        }
    }

    /** Item 14: who owns what and who leads, on /status.json, /status and /metrics of every member. */
    @Test
    void ownershipAndLeadershipAreOnTheStatusPagesAndMetrics() throws Exception {
        try (GroupFixture g = new GroupFixture(3)) {
            await("the switches are split and one member leads").atMost(CONVERGE).until(() -> g.splitSettled()
                    && g.members.stream().filter(m -> m.group.isLeader()).count() == 1);
            // a loaded machine can suspend a member's session between two reads: compare snapshots until they agree
            String[] problem = {""};
            try {
                await("the pages agree with the members").atMost(CONVERGE).until(() -> {
                    problem[0] = pagesDisagree(g);
                    return problem[0] == null;
                });
            } catch (ConditionTimeoutException e) {
                throw new AssertionError(e.getMessage() + "; last difference: " + problem[0], e);
            }
            GroupView view = g.members.get(0).group.view();
            assertEquals(Set.of("m0", "m1", "m2"), new HashSet<>(view.shares().keySet()));
        }
    }

    /** The saba_group_* metrics the shipped Grafana dashboard queries (controller-embedded/grafana). */
    private static final Set<String> GROUP_METRICS_ON_GRAFANA = groupMetricsOnGrafana();

    private static Set<String> groupMetricsOnGrafana() {
        try {
            String dashboard = Files.readString(Path.of("..", "controller-embedded", "grafana", "saba-controller.json"));
            Matcher m = Pattern.compile("saba_group_[a-z_]+").matcher(dashboard);
            Set<String> out = new TreeSet<>();
            while (m.find()) {
                out.add(m.group());
            }
            if (out.isEmpty()) {
                throw new AssertionError("the Grafana dashboard has no group panel");
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the members' status pages and metrics say that they should not, or null when they agree. */
    private static String pagesDisagree(GroupFixture g) {
        try {
            List<String> leaders = g.members.stream().filter(m -> m.group.isLeader()).map(m -> m.id).toList();
            if (leaders.size() != 1) {
                return "leaders " + leaders;
            }
            String leader = leaders.get(0);
            HttpClient http = HttpClient.newHttpClient();
            Map<String, String> ownerOfSwitch = new HashMap<>();
            for (GroupFixture.Member m : g.members) {
                String base = "http://127.0.0.1:" + m.controller.httpAddress().getPort();
                Set<String> before = new TreeSet<>(m.group.programming());
                JsonNode group = new ObjectMapper().readTree(get(http, base + "/status.json")).get("group");
                String html = get(http, base + "/status");
                String metrics = get(http, base + "/metrics");
                Set<String> programming = new TreeSet<>(strings(group.get("programming")));
                if (!before.equals(new TreeSet<>(m.group.programming())) || !programming.equals(before)) {
                    return m.id + " programs " + before + "; its page says " + programming;
                }
                for (String sw : programming) {
                    if (ownerOfSwitch.put(sw, m.id) != null) {
                        return sw + " listed twice";
                    }
                }
                List<String> wrong = new ArrayList<>();
                check(wrong, m.id.equals(group.get("member").asText()), "member");
                check(wrong, leader.equals(group.get("leader").asText()), "leader " + group.get("leader"));
                check(wrong, m.id.equals(leader) == group.get("leads").asBoolean(), "leads");
                check(wrong, strings(group.get("members")).equals(List.of("m0", "m1", "m2")), "members");
                check(wrong, group.get("targets").size() == 20, "targets");
                check(wrong, group.get("imbalance").asDouble() >= 1.0, "imbalance");
                check(wrong, group.get("session_timeout_ms").asLong() == GroupFixture.SESSION.toMillis(), "session");
                check(wrong, html.contains("Controller group") && html.contains("leader " + leader), "html");
                check(wrong, metrics.contains("saba_group_leader " + (m.id.equals(leader) ? 1 : 0) + "\n"),
                        "saba_group_leader");
                check(wrong, metrics.contains("saba_group_members 3\n"), "saba_group_members");
                check(wrong, metrics.contains("saba_group_switches_programmed " + programming.size() + "\n"),
                        "saba_group_switches_programmed");
                check(wrong, metrics.contains("saba_group_split_imbalance "), "saba_group_split_imbalance");
                for (String name : GROUP_METRICS_ON_GRAFANA) {
                    check(wrong, metrics.contains("\n" + name + " "), name + ", on the Grafana dashboard");
                }
                if (!wrong.isEmpty()) {
                    return m.id + ": " + wrong + " in " + group + " / " + metrics;
                }
            }
            return ownerOfSwitch.size() == 20 ? null : "switches listed: " + ownerOfSwitch.keySet();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static void check(List<String> wrong, boolean ok, String what) {
        if (!ok) {
            wrong.add(what);
        }
    }

    /** Registers at one member, again while it answers UNAVAILABLE (a loaded machine can suspend a session). */
    private static void register(GroupFixture.Member m, String appId, String workload) throws InterruptedException {
        await("member " + m.id + " registers " + appId).atMost(CONVERGE).until(() -> {
            try {
                m.controller.api().register("", new Mutation.Register(appId, workload, "test", "u", 0, ""));
                return true;
            } catch (ControllerException e) {
                assertEquals(ControllerException.Kind.UNAVAILABLE, e.kind(), e.getMessage());
                return false;
            }
        });
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(200, r.statusCode(), url);
        return r.body();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * Heartbeats as a client with several addresses sends them: every quarter second to the current member, which
     * it leaves for the next on any failure that is not about the request (an error or no answer within 0.7 s).
     */
    private static final class Heartbeats implements AutoCloseable {
        private final List<GroupFixture.Member> members;
        private final String appId;
        private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "test-heartbeat");
            t.setDaemon(true);
            return t;
        });
        private final List<String> notFound = Collections.synchronizedList(new ArrayList<>());
        private final java.util.concurrent.atomic.AtomicLong ok = new java.util.concurrent.atomic.AtomicLong();
        private final Thread thread;
        private volatile boolean running = true;

        Heartbeats(List<GroupFixture.Member> members, String appId) {
            this.members = members;
            this.appId = appId;
            this.thread = new Thread(this::run, "test-heartbeats");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            int current = 0;
            while (running) {
                GroupFixture.Member m = members.get(current);
                Future<?> f = calls.submit(() -> m.controller.api().heartbeat("", appId));
                try {
                    f.get(700, TimeUnit.MILLISECONDS);
                    ok.incrementAndGet();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ControllerException c
                            && c.kind() == ControllerException.Kind.NOT_FOUND) {
                        notFound.add("member " + m.id + ": " + c.getMessage());
                    }
                    current = (current + 1) % members.size();
                } catch (TimeoutException e) {
                    current = (current + 1) % members.size();
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long ok() {
            return ok.get();
        }

        List<String> notFound() {
            return List.copyOf(notFound);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(5_000);
            calls.shutdownNow();
        }
    }
}
