package io.saba.controller.group;

import io.saba.controller.alloc.Recomputer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which switches, and which hosts' NICs, this member programs. Every live member (an ephemeral node
 * {@code /members/ID@SESSION}) computes the same target owner per switch from the members' ids ({@link SwitchSplit}:
 * rendezvous hashing with bounded loads). Who may actually program a switch is decided by a claim: the ephemeral
 * node {@code /owners/SWITCH}, created by one session at a time.
 *
 * <p>Hosts whose NICs the controller manages (the topology's {@code host-queues}) are units of ownership like
 * switches: split among the members by the same rendezvous hashing (apart from the switches, so each split is
 * balanced on its own and the switches' split is what it is without hosts), claimed at {@code /owners/host:HOST},
 * handed over and fenced the same way. A host's agent is served only by the member that holds the host (the
 * backend learns it through the recomputer, {@link io.saba.controller.fabric.NodeOwnership}), so exactly one
 * member sends a host its plan at a time, and the fence ends the agent's session before the claim goes.
 *
 * <p>A member's node carries its session in its name, so a member whose session was replaced (after LOST, or a
 * process restarted at once) is present under its new node while the old one lingers until the servers expire it:
 * the set of ids, and so the split, does not change when the old node goes. Claims and member nodes of this
 * process's own earlier sessions are replaced at once in one transaction (that session stopped programming when
 * it was cut off), instead of waiting for the servers to expire them.
 *
 * <p>The fence, which keeps two members from ever programming one switch: a member programs a switch only while it
 * holds its claim and is connected. Handing a switch over, it stops programming (and waits for a push in flight)
 * before deleting the claim. Cut off from ZooKeeper, Curator reports SUSPENDED once no server has answered for
 * two thirds of the session timeout; the member then stops programming everything at once, while the servers keep
 * its claims until the whole session timeout has passed. Another member can create the claim only after that.
 * (The margin, a third of the session timeout, must cover a push in flight; pushes take milliseconds.)
 */
final class SwitchOwnership implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchOwnership.class);

    private final CuratorFramework zk;
    /** The group's root for the raw ZooKeeper handle, which knows nothing of Curator's namespace. */
    private final String root;
    private final String id;
    private final SortedSet<String> switches;
    /** Hosts whose NICs are managed: units like switches, claimed apart from them. */
    private final SortedSet<String> hosts;
    private final Recomputer recomputer;
    private final Consumer<String> repush;
    private final BooleanSupplier caughtUp;
    private final OwnershipListener listener;
    /** Switches and hosts this member programs now: the recomputer's ownership predicate reads it. */
    private final Set<String> programming = ConcurrentHashMap.newKeySet();
    /** Claims this member's session holds (ownership thread only). */
    private final Set<String> claims = new HashSet<>();
    private final Object fenceLock = new Object();
    private final Semaphore wake = new Semaphore(0);
    private final Watcher wakeOnChange = e -> wake();
    private final Thread thread;
    private volatile boolean connected = true;
    private volatile boolean running = true;
    private long session;
    /** This process's earlier sessions: their claims and member node are ours to replace. */
    private final Set<Long> pastSessions = new HashSet<>();
    /** The member node of the current session (its data: the last log sequence applied here). */
    private volatile String memberNode;
    private volatile SortedSet<String> memberIds = new TreeSet<>();
    private volatile SortedMap<String, String> targets = new TreeMap<>();
    private volatile SortedMap<String, String> hostTargets = new TreeMap<>();

    /**
     * @param switches the topology's switches
     * @param hosts    the hosts whose NICs the controller manages (empty when it manages switch ports only)
     * @param repush   pushes every port of a switch or host from the replica (after the claim was taken)
     */
    SwitchOwnership(CuratorFramework zk, String root, String id, SortedSet<String> switches, SortedSet<String> hosts,
                    Recomputer recomputer, Consumer<String> repush, BooleanSupplier caughtUp,
                    OwnershipListener listener) {
        this.zk = zk;
        this.root = root;
        this.id = id;
        this.switches = switches;
        this.hosts = hosts;
        this.recomputer = recomputer;
        this.repush = repush;
        this.caughtUp = caughtUp;
        this.listener = listener;
        recomputer.ownership(new io.saba.controller.fabric.NodeOwnership() {
            @Override
            public boolean programs(String node) {
                return programming.contains(node);
            }

            @Override
            public String meantFor(String node) {
                String m = hostTargets.get(node);
                return m != null ? m : targets.get(node);
            }

            @Override
            public String self() {
                return id;
            }
        });
        this.thread = new Thread(this::loop, "saba-group-ownership-" + id);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void wake() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /** Switches programmed now. */
    Set<String> programming() {
        Set<String> out = new HashSet<>(programming);
        out.removeAll(hosts);
        return Set.copyOf(out);
    }

    /** Hosts whose NICs are programmed now. */
    Set<String> hostsProgramming() {
        Set<String> out = new HashSet<>(programming);
        out.retainAll(hosts);
        return Set.copyOf(out);
    }

    /** The live members' ids, as last read. */
    SortedSet<String> members() {
        return memberIds;
    }

    /** switch → the member meant to own it, as last computed. */
    SortedMap<String, String> targets() {
        return targets;
    }

    /** host → the member meant to own it, as last computed (empty when no host's NIC is managed). */
    SortedMap<String, String> hostTargets() {
        return hostTargets;
    }

    /** The current session's member node, relative to the group's namespace; null before it exists. */
    String memberNode() {
        return memberNode;
    }

    /** Connection lost or suspended: stop programming everything now, before the servers can expire the claims. */
    void disconnected() {
        synchronized (fenceLock) {
            connected = false;
            stopAll("cut off from ZooKeeper");
        }
    }

    void reconnected() {
        connected = true;
        wake();
    }

    private void stopAll(String why) {
        if (programming.isEmpty()) {
            return;
        }
        List<String> was = new ArrayList<>(programming);
        programming.clear();
        recomputer.fence();
        long now = System.nanoTime();
        for (String s : was) {
            listener.stopped(id, s, now);
        }
        LOG.warn("member {} stopped programming {} switches and hosts: {}", id, was.size(), why);
    }

    private void loop() {
        while (running) {
            try {
                wake.tryAcquire(500, TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (running && connected) {
                    reconcile();
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running) {
                    LOG.debug("member {}: ownership round failed ({}); retrying", id, e.toString());
                    wake();
                    sleepQuietly(100);
                }
            }
        }
    }

    private void reconcile() throws Exception {
        // claims are made and dropped through one raw handle, that is one session: Curator would retry an
        // operation interrupted by a lost session in the next session, where a late delete could remove a claim
        // another member has made since
        ZooKeeper z = zk.getZookeeperClient().getZooKeeper();
        long current = z.getSessionId();
        if (current != session) {
            // a new session: the old one's claims are no longer held by this handle (replaced when taken again)
            if (session != 0) {
                pastSessions.add(session);
            }
            claims.clear();
            session = current;
            memberNode = null;
        }
        if (memberNode == null) {
            join(z, current);
        }
        List<String> nodes = zk.getChildren().usingWatcher(wakeOnChange).forPath(ZkPaths.MEMBERS);
        SortedSet<String> ids = new TreeSet<>();
        nodes.forEach(n -> ids.add(ZkPaths.memberIdOf(n)));
        SortedMap<String, String> split = SwitchSplit.targets(switches, ids);
        SortedMap<String, String> hostSplit = SwitchSplit.targets(hosts, ids);
        memberIds = ids;
        targets = split;
        hostTargets = hostSplit;
        LOG.debug("member {}: members {}, programming {} switches, caught up {}", id, ids, programming.size(),
                caughtUp.getAsBoolean());
        long t0 = System.nanoTime();
        for (String sw : switches) {
            reconcile(z, sw, id.equals(split.get(sw)));
        }
        for (String host : hosts) {
            reconcile(z, host, id.equals(hostSplit.get(host)));
        }
        LOG.debug("member {}: reconciled in {} ms, programming {}", id, (System.nanoTime() - t0) / 1_000_000,
                programming.size());
    }

    /** Takes a switch or host meant for this member (once the replica caught up), hands over one that is not. */
    private void reconcile(ZooKeeper z, String unit, boolean mine) throws Exception {
        if (mine && caughtUp.getAsBoolean()) {
            take(z, unit);
        } else if (!mine && claims.contains(unit)) {
            handOver(z, unit);
        }
    }

    /** The claim of a switch or of a host ({@code /owners/host:HOST}: apart from any switch's name). */
    private String claim(String unit) {
        return hosts.contains(unit) ? ZkPaths.hostOwner(unit) : ZkPaths.owner(unit);
    }

    /**
     * Creates this session's member node; in the same transaction, deletes the nodes of this process's earlier
     * sessions, so the group never sees this member leave.
     */
    private void join(ZooKeeper z, long current) throws Exception {
        String node = ZkPaths.memberNode(id, current);
        if (z.exists(root + node, false) == null) {
            List<Op> ops = new ArrayList<>();
            for (String child : z.getChildren(root + ZkPaths.MEMBERS, false)) {
                Stat st = z.exists(root + ZkPaths.MEMBERS + "/" + child, false);
                if (st != null && pastSessions.contains(st.getEphemeralOwner())) {
                    ops.add(Op.delete(root + ZkPaths.MEMBERS + "/" + child, st.getVersion()));
                }
            }
            ops.add(Op.create(root + node, "-1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL));
            z.multi(ops);
        }
        memberNode = node;
    }

    private void take(ZooKeeper z, String sw) throws Exception {
        if (!claims.contains(sw)) {
            try {
                z.create(root + claim(sw), id.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL);
                claims.add(sw);
            } catch (KeeperException.NodeExistsException e) {
                Stat st = z.exists(root + claim(sw), wakeOnChange);
                if (st == null) {
                    wake(); // gone meanwhile: try again
                } else if (st.getEphemeralOwner() == z.getSessionId()) {
                    claims.add(sw); // ours already (a create whose answer was lost)
                } else if (pastSessions.contains(st.getEphemeralOwner())) {
                    // this process's earlier session: it stopped programming when it was cut off, so the claim is
                    // moved to this session now rather than after the servers expire that session (a session
                    // timeout with no one programming the switch)
                    z.multi(List.of(Op.delete(root + claim(sw), st.getVersion()),
                            Op.create(root + claim(sw), id.getBytes(StandardCharsets.UTF_8),
                                    ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL)));
                    claims.add(sw);
                    LOG.info("member {} moved its claim on {} from its earlier session 0x{}", id, sw,
                            Long.toHexString(st.getEphemeralOwner()));
                } else {
                    return; // its previous owner still holds it: the watch wakes us when that claim goes
                }
                if (!claims.contains(sw)) {
                    return;
                }
            }
        }
        if (!programming.contains(sw)) {
            long since = System.nanoTime(); // before the recomputer can see the switch as ours
            synchronized (fenceLock) {
                if (!connected) {
                    return;
                }
                programming.add(sw);
            }
            listener.started(id, sw, since);
            repush.accept(sw);
        }
    }

    private void handOver(ZooKeeper z, String sw) throws Exception {
        if (programming.remove(sw)) {
            recomputer.fence();
            listener.stopped(id, sw, System.nanoTime());
        }
        dropClaim(z, sw);
        claims.remove(sw);
    }

    /** Deletes the claim only if this handle's session holds it (never another member's). */
    private void dropClaim(ZooKeeper z, String sw) throws Exception {
        Stat st = z.exists(root + claim(sw), false);
        if (st != null && st.getEphemeralOwner() == z.getSessionId()) {
            try {
                z.delete(root + claim(sw), st.getVersion());
            } catch (KeeperException.NoNodeException e) {
                // already gone
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops programming, hands every claim back (the others take over at once), leaves the group. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (fenceLock) {
            stopAll("leaving the group");
        }
        try {
            ZooKeeper z = zk.getZookeeperClient().getZooKeeper();
            if (z.getSessionId() == session) {
                for (String sw : new ArrayList<>(claims)) {
                    dropClaim(z, sw);
                }
            }
        } catch (Exception e) {
            // the session's end removes the claims anyway (closing the client ends it)
        }
    }
}
