package io.saba.controller.group;

import io.saba.controller.GroupMembership;
import io.saba.controller.GroupView;
import io.saba.controller.SabaController;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.StateLog;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.PortId;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topology;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of a controller group on ZooKeeper. Its parts: the shared log its controller writes through and
 * follows ({@link ZkStateLog}), the switches (and the hosts' NICs, when the topology manages them) it programs
 * ({@link SwitchOwnership}), and, while a Curator
 * {@link LeaderLatch} elects it, the leader's duties ({@link GroupLeader}: table, level plan, lease expiry,
 * snapshots, {@link ZkSnapshots}). This class connects them to one ZooKeeper session and runs the duty thread
 * (the member's progress for everyone; the leader's duties for the leader).
 *
 * <p>Leases do not run while a member is cut off: when it reaches ZooKeeper again it gives every application in
 * its replica a fresh lease, as a lone controller does after a restart. Heartbeats could not be logged meanwhile,
 * so a leader that came back first would otherwise expire applications that kept heartbeating all along.
 */
public final class ZkControllerGroup implements GroupMembership {
    private static final Logger LOG = LoggerFactory.getLogger(ZkControllerGroup.class);

    private final GroupSettings settings;
    private final Topology topology;
    /** The hosts' NIC ports the controller manages (empty: switch ports only). */
    private final SortedSet<PortId> hostPorts;
    private final OwnershipListener ownershipListener;
    private final ZkStateLog log;
    private CuratorFramework zk;
    private SwitchOwnership ownership;
    private LeaderLatch latch;
    private GroupLeader leader;
    private ScheduledExecutorService duties;
    private SabaController controller;
    /** The session timeout the servers granted at the last connection (the view shows it while cut off too). */
    private volatile int grantedSessionMillis;
    private long publishedApplied = -2;
    private String publishedTo;

    /**
     * @param topology every member's topology (the same everywhere): its switches are split among the members
     * @param listener told when this member starts and stops programming a switch (tests; may log)
     */
    public ZkControllerGroup(GroupSettings settings, Topology topology, OwnershipListener listener) {
        this(settings, topology, new java.util.TreeSet<>(), listener);
    }

    /**
     * A group whose members program the hosts' NICs too when the resolver manages them ({@code host-queues}): each
     * such host is split, claimed and handed over like a switch, and only its owner pushes (and serves the agent of)
     * the host.
     *
     * @param listener told when this member starts and stops programming a switch or host (tests; may log)
     */
    public ZkControllerGroup(GroupSettings settings, TopologyResolver topology, OwnershipListener listener) {
        this(settings, topology.topology(), topology.hostEgressPorts(), listener);
    }

    public ZkControllerGroup(GroupSettings settings, TopologyResolver topology) {
        this(settings, topology, logging());
    }

    private ZkControllerGroup(GroupSettings settings, Topology topology, SortedSet<PortId> hostPorts,
                              OwnershipListener listener) {
        this.settings = settings;
        this.topology = topology;
        this.hostPorts = new java.util.TreeSet<>(hostPorts);
        this.ownershipListener = listener;
        this.log = new ZkStateLog(settings.id());
    }

    public ZkControllerGroup(GroupSettings settings, Topology topology) {
        this(settings, topology, logging());
    }

    private static OwnershipListener logging() {
        return new OwnershipListener() {
            @Override
            public void started(String member, String sw, long nanos) {
                LOG.info("member {} programs {}", member, sw);
            }

            @Override
            public void stopped(String member, String sw, long nanos) {
                LOG.info("member {} no longer programs {}", member, sw);
            }
        };
    }

    @Override
    public StateLog log() {
        return log;
    }

    @Override
    public void join(SabaController controller, ModelCatalog configured) {
        this.controller = controller;
        int sessionMs = (int) settings.sessionTimeout().toMillis();
        zk = CuratorFrameworkFactory.builder().connectString(settings.connect()).namespace(settings.namespace())
                .sessionTimeoutMs(sessionMs).connectionTimeoutMs(Math.min(sessionMs, 15_000))
                // the servers named in the URI, and only those: Curator would otherwise replace them by the
                // addresses the ensemble advertises, bypassing a proxy or NAT the operator put in between
                .ensembleTracker(false)
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000)).build();
        zk.getConnectionStateListenable().addListener((c, state) -> connectionChanged(state));
        zk.start();
        try {
            if (!zk.blockUntilConnected(Math.max(15_000, sessionMs), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + settings.connect() + " (group zk://"
                        + settings.connect() + "/" + settings.namespace() + ")");
            }
            int granted = zk.getZookeeperClient().getZooKeeper().getSessionTimeout();
            grantedSessionMillis = granted;
            if (granted != sessionMs) {
                // the servers clamp a session to 2–20 of their ticks: the take-over time follows what they grant
                LOG.warn("member {}: ZooKeeper granted a session timeout of {} ms, not the {} ms asked for (servers"
                        + " allow 2 to 20 of their ticks); a crashed member's switches wait that long", settings.id(),
                        granted, sessionMs);
            }
            for (String p : List.of(ZkPaths.LOG, ZkPaths.MEMBERS, ZkPaths.OWNERS, ZkPaths.SNAPSHOTS)) {
                try {
                    zk.create().creatingParentContainersIfNeeded().forPath(p, new byte[0]);
                } catch (KeeperException.NodeExistsException e) {
                    // another member made it
                }
            }
            ZkSnapshots snapshots = new ZkSnapshots(zk);
            SortedSet<String> hosts = new java.util.TreeSet<>();
            hostPorts.forEach(p -> hosts.add(p.node()));
            ownership = new SwitchOwnership(zk, "/" + settings.namespace(), settings.id(), topology.switches(), hosts,
                    controller.recomputer(), node -> controller.repush(portsOf(node)), log::caughtUp,
                    ownershipListener);
            log.start(zk, snapshots, ownership::memberNode);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!log.caughtUp() && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            ownership.start();
            // writes are fenced by this session's member node (ZkStateLog): joined means it exists
            while (ownership.memberNode() == null && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            leader = new GroupLeader(settings.id(), log, snapshots, controller, LogRequest.Table.of(configured));
            latch = new LeaderLatch(zk, ZkPaths.LEADER, settings.id());
            latch.start();
            controller.describeGroup(this::view);
            controller.metrics().gauge("saba_group_leader",
                    "1 while this member leads the controller group, 0 otherwise", () -> isLeader() ? 1 : 0);
            controller.metrics().gauge("saba_group_members", "members of the controller group",
                    () -> ownership.members().size());
            controller.metrics().gauge("saba_group_switches_programmed", "switches this member programs",
                    () -> ownership.programming().size());
            controller.metrics().gauge("saba_group_hosts_programmed", "hosts whose NICs this member programs (and"
                    + " whose agents it serves)", () -> ownership.hostsProgramming().size());
            controller.metrics().gauge("saba_group_switches_meant", "switches the group's split gives this member",
                    () -> ownership.targets().values().stream()
                    .filter(settings.id()::equals).count());
            controller.metrics().ratioGauge("saba_group_split_imbalance",
                    "the largest member's share of switches over the fair share", () -> view().imbalance());
            duties = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "saba-group-duties-" + settings.id());
                t.setDaemon(true);
                return t;
            });
            duties.scheduleWithFixedDelay(this::duties, 50, 50, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while joining the controller group", e);
        } catch (Exception e) {
            close();
            throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot join the controller "
                    + "group at zk://" + settings.connect() + "/" + settings.namespace() + ": " + e, e);
        }
        LOG.info("member {} joined the controller group zk://{}/{} (log applied up to {})", settings.id(),
                settings.connect(), settings.namespace(), log.applied());
    }

    /** Every port of a switch, or a host's managed NIC port(s). */
    private List<PortId> portsOf(String node) {
        List<PortId> out = new java.util.ArrayList<>();
        topology.switchPorts().stream().filter(p -> p.node().equals(node)).forEach(out::add);
        hostPorts.stream().filter(p -> p.node().equals(node)).forEach(out::add);
        return out;
    }

    private void connectionChanged(ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
            log.connected(false);
            if (ownership != null) {
                ownership.disconnected();
            }
            LOG.warn("member {}: ZooKeeper connection {}; not programming the fabric until it is back",
                    settings.id(), state);
        } else if (state.isConnected()) {
            if (controller != null) {
                // heartbeats could not reach the log while cut off: leases start again from now
                controller.replica().renewAll();
            }
            log.connected(true);
            if (ownership != null) {
                ownership.reconnected();
            }
            LOG.info("member {}: ZooKeeper connection {}", settings.id(), state);
        }
    }

    /** This member's id in the group. */
    public String id() {
        return settings.id();
    }

    /** Switches this member programs now. */
    public Set<String> programming() {
        return ownership == null ? Set.of() : ownership.programming();
    }

    /** Hosts whose NICs this member programs now (and whose agents it serves). */
    public Set<String> hostsProgramming() {
        return ownership == null ? Set.of() : ownership.hostsProgramming();
    }

    public boolean isLeader() {
        return latch != null && latch.hasLeadership();
    }

    /** This member's view of the group: who leads, the members, what it programs, the split. */
    public GroupView view() {
        String leaderId = "";
        if (isLeader()) {
            leaderId = settings.id();
        } else if (latch != null && log.isConnected()) {
            try {
                leaderId = latch.getLeader().getId();
            } catch (Exception e) {
                // no leader known now
            }
        }
        return new GroupView(settings.id(), leaderId, ownership == null ? new TreeSet<>() : ownership.members(),
                new TreeSet<>(programming()), ownership == null ? new TreeMap<>() : ownership.targets(),
                grantedSessionMillis, new TreeSet<>(hostsProgramming()),
                ownership == null ? new TreeMap<>() : ownership.hostTargets());
    }

    /** Times this member rebuilt its replica from the group's snapshot (joining after a trim, or after LOST). */
    public long snapshotsLoaded() {
        return log.snapshotsLoaded();
    }

    /** The last log sequence applied here. */
    public long applied() {
        return log.applied();
    }

    /** This member's progress for everyone; the leader's duties for the leader. */
    private void duties() {
        try {
            if (!log.isConnected()) {
                return;
            }
            long applied = log.applied();
            String node = ownership.memberNode();
            if (node != null && (applied != publishedApplied || !node.equals(publishedTo))) {
                zk.setData().forPath(node, Long.toString(applied).getBytes(StandardCharsets.UTF_8));
                publishedApplied = applied;
                publishedTo = node;
            }
            if (latch != null && latch.hasLeadership() && log.caughtUp()) {
                leader.lead();
            }
        } catch (Exception e) {
            LOG.debug("member {}: duty round failed: {}", settings.id(), e.toString());
        }
    }

    /** Stops programming, hands its switches over, leaves the group; calls still waiting fail as unavailable. */
    @Override
    public void close() {
        if (ownership != null) {
            ownership.close();
        }
        if (duties != null) {
            duties.shutdownNow();
        }
        if (latch != null) {
            try {
                latch.close();
            } catch (Exception e) {
                LOG.debug("leader latch close: {}", e.toString());
            }
        }
        log.close();
        if (zk != null) {
            zk.close();
        }
    }
}
