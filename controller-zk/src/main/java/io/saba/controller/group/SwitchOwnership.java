package io.saba.controller.group;

import io.saba.controller.alloc.Recomputer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which switches this member programs. Every live member (an ephemeral node under {@code /members}) computes the
 * same target owner per switch by rendezvous hashing over the members, so a join or a death moves only the
 * switches that must move. Who may actually program a switch is decided by a claim: the ephemeral node
 * {@code /owners/SWITCH}, created by one session at a time.
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
    private final Recomputer recomputer;
    private final Consumer<String> repush;
    private final BooleanSupplier caughtUp;
    private final OwnershipListener listener;
    /** Switches this member programs now: the recomputer's ownership predicate reads it. */
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

    SwitchOwnership(CuratorFramework zk, String root, String id, SortedSet<String> switches, Recomputer recomputer,
                    Consumer<String> repush, BooleanSupplier caughtUp, OwnershipListener listener) {
        this.zk = zk;
        this.root = root;
        this.id = id;
        this.switches = switches;
        this.recomputer = recomputer;
        this.repush = repush;
        this.caughtUp = caughtUp;
        this.listener = listener;
        recomputer.ownership(p -> programming.contains(p.node()));
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
        return Set.copyOf(programming);
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
        LOG.warn("member {} stopped programming {} switches: {}", id, was.size(), why);
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
            // a new session: every claim and the membership of the old one are gone with it
            claims.clear();
            session = current;
        }
        if (z.exists(root + ZkPaths.member(id), false) == null) {
            z.create(root + ZkPaths.member(id), "-1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL);
        }
        List<String> members = zk.getChildren().usingWatcher(wakeOnChange).forPath(ZkPaths.MEMBERS);
        LOG.debug("member {}: members {}, programming {} switches, caught up {}", id, members, programming.size(),
                caughtUp.getAsBoolean());
        long t0 = System.nanoTime();
        for (String sw : switches) {
            boolean mine = id.equals(target(sw, members));
            if (mine && caughtUp.getAsBoolean()) {
                take(z, sw);
            } else if (!mine && claims.contains(sw)) {
                handOver(z, sw);
            }
        }
        LOG.debug("member {}: reconciled in {} ms, programming {}", id, (System.nanoTime() - t0) / 1_000_000,
                programming.size());
    }

    private void take(ZooKeeper z, String sw) throws Exception {
        if (!claims.contains(sw)) {
            try {
                z.create(root + ZkPaths.owner(sw), id.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL);
                claims.add(sw);
            } catch (KeeperException.NodeExistsException e) {
                Stat st = z.exists(root + ZkPaths.owner(sw), wakeOnChange);
                if (st == null) {
                    wake(); // gone meanwhile: try again
                } else if (st.getEphemeralOwner() == z.getSessionId()) {
                    claims.add(sw); // ours already (a create whose answer was lost)
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
        Stat st = z.exists(root + ZkPaths.owner(sw), false);
        if (st != null && st.getEphemeralOwner() == z.getSessionId()) {
            try {
                z.delete(root + ZkPaths.owner(sw), st.getVersion());
            } catch (KeeperException.NoNodeException e) {
                // already gone
            }
        }
    }

    /** The member that should own a switch: highest rendezvous score, ties to the smaller name. */
    static String target(String sw, List<String> members) {
        String best = null;
        long bestScore = 0;
        for (String m : members) {
            long score = score(sw, m);
            if (best == null || Long.compareUnsigned(score, bestScore) > 0
                    || (score == bestScore && m.compareTo(best) < 0)) {
                best = m;
                bestScore = score;
            }
        }
        return best;
    }

    /** FNV-1a over "switch \n member", then a final mix: stable across JVMs and versions. */
    static long score(String sw, String member) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (sw + '\n' + member).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h;
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
