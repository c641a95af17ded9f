package io.saba.controller.group;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.GroupView;
import io.saba.controller.SabaController;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.state.AppView;
import io.saba.controller.state.Mutation;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * Three real ZooKeeper servers (Curator's TestingCluster) and three controller members on loopback, each reaching
 * ZooKeeper through its own {@link ZkProxy}s so that a test can cut one member off. Everything started here is
 * closed by {@link #close()}, also after a failure.
 */
final class GroupFixture implements AutoCloseable {
    /** Short sessions keep takeover tests quick; the servers' tick (250 ms) allows 0.5 s to 5 s. */
    static final Duration SESSION = Duration.ofSeconds(3);

    static {
        // a server restarted in a test can find its election port still held for a moment: it retries for a
        // while (a second apart), and a server that fails anyway must fail the test, not exit its JVM (exit 14)
        System.setProperty("zookeeper.electionPortBindRetry", "30");
        org.apache.zookeeper.util.ServiceUtils.setSystemExitProcedure(org.apache.zookeeper.util.ServiceUtils.LOG_ONLY);
    }

    record Ownership(String member, String sw, long nanos, boolean started) {
    }

    final TestingCluster zk;
    /** How long an application keeps its registration without a heartbeat. */
    final Duration lease;
    /** The members' ZooKeeper session timeout ({@link #SESSION} unless a test needs another). */
    final Duration session;
    /** What the members give levels to ({@code level-per}). */
    final LevelMode levelPer;
    final TopologyResolver topology = fatTree();
    final RecordingFabric fabric = new RecordingFabric();
    final List<Ownership> ownership = new CopyOnWriteArrayList<>();
    final List<Member> members = new ArrayList<>();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    final class Member {
        final String id;
        final List<ZkProxy> proxies = new ArrayList<>();
        EmbeddedController controller;
        ZkControllerGroup group;
        volatile boolean dead;
        private String target;

        Member(String id) {
            this.id = id;
        }

        void start() throws Exception {
            proxies.forEach(GroupFixture::closeQuietly);
            proxies.clear();
            StringBuilder connect = new StringBuilder();
            for (InstanceSpec s : zk.getInstances()) {
                ZkProxy p = new ZkProxy(s.getPort());
                proxies.add(p);
                connect.append(connect.length() == 0 ? "" : ",").append("127.0.0.1:").append(p.port());
            }
            group = new ZkControllerGroup(new GroupSettings(connect.toString(), "saba-test", session, id),
                    topology.topology(), new OwnershipListener() {
                        @Override
                        public void started(String member, String sw, long nanos) {
                            ownership.add(new Ownership(member, sw, nanos, true));
                        }

                        @Override
                        public void stopped(String member, String sw, long nanos) {
                            ownership.add(new Ownership(member, sw, nanos, false));
                        }
                    });
            controller = EmbeddedController.builder().topology(topology).table(catalog())
                    .backend(fabric.backendFor(id), true).leaseTimeout(lease).levelPer(levelPer).group(group)
                    .http(new java.net.InetSocketAddress("127.0.0.1", 0)).build();
            controller.start();
            target = controller.target();
            dead = false;
        }

        /** The gRPC address (kept: it stays the member's name after a crash). */
        String target() {
            return target;
        }

        /** Cuts this member off from every ZooKeeper server (its gRPC server stays up). */
        void partition() {
            proxies.forEach(ZkProxy::cut);
        }

        void heal() {
            proxies.forEach(ZkProxy::heal);
        }

        /** A crash, as the group sees it: silent towards ZooKeeper, then gone (its session has to expire). */
        Thread crash() {
            dead = true;
            partition();
            Thread t = new Thread(controller::close, "crash-" + id);
            t.start();
            return t;
        }

        void close() {
            closeQuietly(controller);
            proxies.forEach(GroupFixture::closeQuietly);
        }
    }

    GroupFixture(int members) throws Exception {
        this(members, Duration.ofSeconds(60));
    }

    GroupFixture(int members, Duration lease) throws Exception {
        this(members, lease, SESSION);
    }

    GroupFixture(int members, Duration lease, Duration session) throws Exception {
        this(members, lease, session, 250);
    }

    /** @param tickMillis the servers' tick: sessions may last 2 to 20 ticks */
    GroupFixture(int members, Duration lease, Duration session, int tickMillis) throws Exception {
        this(members, lease, session, tickMillis, LevelMode.WORKLOAD);
    }

    /** Members that give levels to {@code levelPer}'s members. */
    GroupFixture(int members, LevelMode levelPer) throws Exception {
        this(members, Duration.ofSeconds(60), SESSION, 250, levelPer);
    }

    private GroupFixture(int members, Duration lease, Duration session, int tickMillis, LevelMode levelPer)
            throws Exception {
        this.lease = lease;
        this.session = session;
        this.levelPer = levelPer;
        List<InstanceSpec> specs = new ArrayList<>();
        int[] ports = LocalEnsemblePorts.distinct(9);
        for (int i = 0; i < 3; i++) {
            File dir = Files.createTempDirectory("saba-zk").toFile();
            specs.add(new InstanceSpec(dir, ports[3 * i], ports[3 * i + 1], ports[3 * i + 2], true, i + 1,
                    tickMillis, 200));
        }
        zk = new TestingCluster(specs);
        try {
            zk.start();
            for (int i = 0; i < members; i++) {
                Member m = new Member("m" + i);
                this.members.add(m);
                m.start();
            }
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** Adds and starts one more member. */
    Member join(String id) throws Exception {
        Member m = new Member(id);
        members.add(m);
        m.start();
        return m;
    }

    List<Member> live() {
        return members.stream().filter(m -> !m.dead).toList();
    }

    /**
     * The split has settled: every live member sees the same members and the same targets, and programs exactly the
     * switches meant for it. (Each member programming something and 20 programmed in all also holds mid-hand-over,
     * while a switch still sits with a member that is about to pass it on.)
     */
    boolean splitSettled() {
        List<Member> live = live();
        java.util.SortedMap<String, String> targets = live.get(0).group.view().targets();
        for (Member m : live) {
            GroupView v = m.group.view();
            if (v.members().size() != live.size() || !v.targets().equals(targets) || targets.size() != 20) {
                return false;
            }
            java.util.Set<String> meant = targets.entrySet().stream().filter(e -> e.getValue().equals(m.id))
                    .map(Map.Entry::getKey).collect(Collectors.toSet());
            if (meant.isEmpty() || !m.group.programming().equals(meant)) {
                return false;
            }
        }
        return true;
    }

    String targets() {
        return members.stream().map(Member::target).collect(Collectors.joining(","));
    }

    static ModelCatalog catalog() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        m.put("lr", SensitivityModel.of(5, -8, 4));
        m.put("pr", SensitivityModel.of(3, -4, 2));
        m.put("svm", SensitivityModel.of(2, -1.5, 0.5));
        m.put("wc", SensitivityModel.of(1.2, -0.2));
        m.put("sort", SensitivityModel.of(1.5, -0.5));
        return new ModelCatalog(m);
    }

    /** fat-tree k=4: 16 hosts (10.0.0.1..16), 20 switches. */
    static TopologyResolver fatTree() {
        Topology t = Topologies.fatTree(4, 10, 8);
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        int i = 1;
        for (String h : t.hosts()) {
            addresses.put(h, List.of("10.0.0." + i++));
        }
        return new TopologyResolver(t, addresses);
    }

    /** What a lone controller pushed, and the level of each workload there. */
    record Reference(Map<PortId, PortAllocation> ports, Map<String, Integer> levelOfWorkload) {
    }

    /**
     * What a lone controller pushes for the applications and connections a member holds: the reference the group
     * must equal.
     */
    static Reference singleControllerFor(List<AppView> apps) throws InterruptedException {
        DryRunBackend dry = new DryRunBackend(false, 100_000);
        try (EmbeddedController single = EmbeddedController.builder().topology(fatTree()).table(catalog())
                .backend(dry, true).leaseTimeout(Duration.ofSeconds(60)).build()) {
            single.start();
            SabaController c = single.controller();
            for (AppView a : apps) {
                c.register(a.tenant(), new Mutation.Register(a.appId(), a.workload(), a.framework(), a.user(),
                        a.attempt(), a.tenant()));
                c.connectionEvent(a.tenant(), new Mutation.Sync(a.appId(), a.open(), 0));
            }
            if (!c.recomputer().awaitQuiescent(Duration.ofSeconds(30))) {
                throw new AssertionError("the reference controller did not settle");
            }
            return new Reference(dry.configured(), levelOfWorkload(c.status(false).apps()));
        }
    }

    static Map<String, Integer> levelOfWorkload(List<AppView> apps) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        apps.forEach(a -> out.put(a.workload(), a.level()));
        return out;
    }

    /**
     * Ports whose configuration differs between the fabric and a reference (empty: equal): what the switch holds,
     * the workloads sharing each queue and its weight (per-app weights are bookkeeping). Level numbers may differ:
     * running workloads keep their levels, so they depend on the order workloads reached each controller.
     *
     * @param levelOfWorkload each workload's level in the group
     */
    static List<String> differences(Map<PortId, PortAllocation> fabric, Map<String, Integer> levelOfWorkload,
                                    Reference expected) {
        List<String> out = new ArrayList<>();
        for (PortId p : new TreeSet<>(union(fabric, expected.ports()))) {
            PortAllocation a = fabric.get(p);
            PortAllocation b = expected.ports().get(p);
            if (a == null || b == null || !Allocator.queuesByMembers(a, levelOfWorkload)
                    .equals(Allocator.queuesByMembers(b, expected.levelOfWorkload()))) {
                out.add(p + ": fabric " + a + " vs single controller " + b);
            }
        }
        return out;
    }

    private static java.util.Set<PortId> union(Map<PortId, ?> a, Map<PortId, ?> b) {
        java.util.Set<PortId> s = new java.util.HashSet<>(a.keySet());
        s.addAll(b.keySet());
        return s;
    }


    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // closing everything regardless
        }
    }

    @Override
    public void close() {
        for (Member m : members) {
            m.close();
        }
        toClose.forEach(GroupFixture::closeQuietly);
        closeQuietly(zk);
    }
}
