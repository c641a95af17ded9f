package io.saba.controller.group;

import io.saba.controller.log.LogCodec;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.log.StateLog;
import io.saba.controller.state.ControllerException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller group's shared log in ZooKeeper, as one member's controller writes through it: a writer thread
 * appends the waiting writes as one sequential znode (group commit), and a follower thread applies every entry, in
 * order, to this member's {@link Replica} and answers the writes that were waiting for it. A member that fell
 * behind the trimmed log rebuilds its replica from the group's snapshot ({@link ZkSnapshots}).
 *
 * <p>An entry is written once, through the raw ZooKeeper handle, in one transaction with a check that this
 * session's member node still exists, and never retried: Curator would retry a write interrupted by a lost
 * connection, in the next session too, and land it seconds later, after its callers had timed out and their client
 * had re-synced through another member, so every replica would apply the old picture over the new one. A write
 * whose outcome is unknown fails its callers as unavailable (their client tries another member); if it did commit,
 * the follower applies it like any other entry.
 */
final class ZkStateLog implements StateLog {
    private static final Logger LOG = LoggerFactory.getLogger(ZkStateLog.class);
    /** Requests per entry and a size budget well under ZooKeeper's default 1 MB node limit. */
    private static final int MAX_REQUESTS_PER_ENTRY = 2_000;
    private static final int ENTRY_BYTES = 512 * 1024;
    private static final long CALL_TIMEOUT_MILLIS = 10_000;

    private final String id;
    private CuratorFramework zk;
    /** The group's root for the raw handle, which knows nothing of Curator's namespace. */
    private String root;
    /** This session's member node ({@link SwitchOwnership#memberNode}), null while there is none. */
    private Supplier<String> memberNode;
    private ZkSnapshots snapshots;
    private Replica replica;
    private final BlockingQueue<Pending> submissions = new ArrayBlockingQueue<>(100_000);
    private final Map<String, List<Pending>> waiting = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> written = new ConcurrentHashMap<>();
    private final AtomicLong nonces = new AtomicLong();
    private final Semaphore followerWake = new Semaphore(0);
    private final Watcher wakeFollower = e -> wakeFollower();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private volatile boolean connected;
    private volatile long applied = -1;
    private volatile long caughtUpSession = -1;
    private volatile boolean snapshotWanted;
    private volatile ZkSnapshots.Snapshot captured;
    private final AtomicLong entriesApplied = new AtomicLong();
    private final AtomicLong snapshotsLoaded = new AtomicLong();

    private record Pending(LogRequest request, CompletableFuture<Object> done) {
    }

    /** @param id this member's id (names its entries' nonces and its messages) */
    ZkStateLog(String id) {
        this.id = id;
    }

    @Override
    public void open(Replica r) {
        this.replica = r;
    }

    /**
     * Starts writing and following once ZooKeeper is reachable (the group connects it).
     *
     * @param memberNode this session's member node, the fence every write checks (null: writes fail until it exists)
     */
    void start(CuratorFramework client, ZkSnapshots store, Supplier<String> memberNode) {
        this.zk = client;
        this.root = "/" + client.getNamespace();
        this.memberNode = memberNode;
        this.snapshots = store;
        running = true;
        connected = true;
        start(this::follow, "saba-group-follower-");
        start(this::writeLoop, "saba-group-writer-");
    }

    private void start(Runnable r, String name) {
        Thread t = new Thread(r, name + id);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** ZooKeeper came or went: writes are refused while it is away, and the follower re-reads when it is back. */
    void connected(boolean now) {
        connected = now;
        if (now) {
            wakeFollower();
        }
    }

    boolean isConnected() {
        return connected;
    }

    /** True once the follower has read the whole log in this session (claims wait for it: no stale pushes). */
    boolean caughtUp() {
        try {
            return connected && zk != null
                    && caughtUpSession == zk.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return false;
        }
    }

    /** The last log sequence applied here. */
    long applied() {
        return applied;
    }

    /**
     * Waits until this replica has applied every entry the log holds now (the leader calls it before it expires
     * leases, so that no renewal another member has acknowledged is missing from the decision).
     *
     * @return false if the follower did not get there within the wait
     */
    boolean applyEverythingWritten(long waitMillis) throws Exception {
        long tail = -1;
        for (String c : zk.getChildren().forPath(ZkPaths.LOG)) {
            tail = Math.max(tail, ZkPaths.sequenceOf(c));
        }
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (applied < tail) {
            if (System.nanoTime() > end) {
                return false;
            }
            wakeFollower();
            Thread.sleep(2);
        }
        return true;
    }

    /** Entries applied since the last snapshot was written. */
    long entriesSinceSnapshot() {
        return entriesApplied.get();
    }

    /** Times this member rebuilt its replica from the group's snapshot (joining after a trim, or after LOST). */
    long snapshotsLoaded() {
        return snapshotsLoaded.get();
    }

    // ---- writing (group commit) ----

    @Override
    public Object write(LogRequest request) {
        return await(submit(request));
    }

    private CompletableFuture<Object> submit(LogRequest r) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        if (!running || !connected) {
            f.completeExceptionally(ControllerException.unavailable("controller " + id
                    + " is cut off from the group's ZooKeeper; try another controller"));
        } else if (!submissions.offer(new Pending(r, f))) {
            f.completeExceptionally(ControllerException.unavailable("controller " + id
                    + " has too many calls waiting for the group's log"));
        }
        return f;
    }

    private static Object await(CompletableFuture<Object> f) {
        try {
            return f.get(CALL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw ControllerException.unavailable("no answer from the group's log within " + CALL_TIMEOUT_MILLIS
                    + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ControllerException.unavailable("interrupted");
        }
    }

    /**
     * A heartbeat taken here counts once it is in the log, where the leader, who expires leases, sees it: it is
     * written like any call (group commit puts the heartbeats waiting at one moment in one entry), and the call
     * fails as unavailable when the log cannot take it, so a member never acknowledges a renewal the group may
     * not see.
     */
    @Override
    public void renewed(String appId, String tenant) {
        write(new LogRequest.Renew(Map.of(appId, tenant)));
    }

    private void writeLoop() {
        while (running) {
            List<Pending> batch = new ArrayList<>();
            try {
                Pending first = submissions.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                submissions.drainTo(batch, MAX_REQUESTS_PER_ENTRY - 1);
                writeEntries(batch);
            } catch (InterruptedException e) {
                fail(batch, "controller " + id + " is closing");
                return;
            }
        }
    }

    private void writeEntries(List<Pending> batch) {
        // split by size: one entry must stay under ZooKeeper's node limit
        List<Pending> entry = new ArrayList<>();
        int bytes = 0;
        for (Pending p : batch) {
            int size = LogCodec.encode("", List.of(p.request())).length;
            if (size > ENTRY_BYTES) {
                p.done().completeExceptionally(ControllerException.invalid("request too large for the group's log ("
                        + size + " bytes; at most " + ENTRY_BYTES + "): send fewer connections per call"));
                continue;
            }
            if (bytes + size > ENTRY_BYTES) {
                writeEntry(entry);
                entry = new ArrayList<>();
                bytes = 0;
            }
            entry.add(p);
            bytes += size;
        }
        writeEntry(entry);
    }

    private void writeEntry(List<Pending> entry) {
        if (entry.isEmpty()) {
            return;
        }
        String nonce = id + "-" + nonces.incrementAndGet();
        List<LogRequest> requests = new ArrayList<>(entry.size());
        for (Pending p : entry) {
            requests.add(p.request());
        }
        byte[] data = LogCodec.encode(nonce, requests);
        String fence = memberNode.get();
        if (fence == null) {
            fail(entry, "controller " + id + " is not a member of the group right now (its ZooKeeper session is "
                    + "new or lost); try another controller");
            return;
        }
        waiting.put(nonce, entry);
        try {
            ZooKeeper z = zk.getZookeeperClient().getZooKeeper();
            List<OpResult> r = z.multi(List.of(Op.check(root + fence, -1), Op.create(root + ZkPaths.ENTRY_PREFIX,
                    data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL)));
            written.put(ZkPaths.sequenceOf(((OpResult.CreateResult) r.get(1)).getPath()), data);
            wakeFollower();
        } catch (Exception e) {
            // the fence is gone (the session that took these calls was lost), or the connection went and the
            // entry may or may not have been written: if it was, the follower applies it and finds no one waiting
            List<Pending> w = waiting.remove(nonce);
            if (w != null) {
                fail(w, "controller " + id + " could not write to the group's log (" + e + ")");
            }
        }
    }

    private static void fail(List<Pending> ps, String why) {
        for (Pending p : ps) {
            p.done().completeExceptionally(ControllerException.unavailable(why));
        }
    }

    // ---- following ----

    void wakeFollower() {
        if (followerWake.availablePermits() == 0) {
            followerWake.release();
        }
    }

    /** Asks the follower to capture the replica at the position it has applied (a consistent snapshot). */
    void wantSnapshot() {
        snapshotWanted = true;
        wakeFollower();
    }

    /** The snapshot the follower captured since the last call, or null. */
    ZkSnapshots.Snapshot takeCaptured() {
        ZkSnapshots.Snapshot s = captured;
        captured = null;
        return s;
    }

    /** The group's snapshot now covers the log up to this entry. */
    void snapshotWritten() {
        entriesApplied.set(0);
    }

    private void follow() {
        while (running) {
            try {
                followerWake.tryAcquire(500, TimeUnit.MILLISECONDS);
                followerWake.drainPermits();
                if (!connected) {
                    continue;
                }
                long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
                if (followOnce()) {
                    caughtUpSession = session;
                }
                if (snapshotWanted) {
                    snapshotWanted = false;
                    captured = new ZkSnapshots.Snapshot(applied, replica.snapshot());
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running) {
                    LOG.debug("member {}: reading the log failed ({}); retrying", id, e.toString());
                    sleepQuietly(100);
                    wakeFollower();
                }
            }
        }
    }

    /** @return true when the whole log as listed was applied (false after a rebuild: read again first) */
    private boolean followOnce() throws Exception {
        List<String> children = zk.getChildren().usingWatcher(wakeFollower).forPath(ZkPaths.LOG);
        // read the trim mark after listing: entries missing from the list were trimmed before it was set
        long trimmed = ZkSnapshots.readLong(zk.getData().forPath(ZkPaths.LOG), -1);
        if (trimmed > applied) {
            rebuildFromSnapshot();
            wakeFollower();
            return false;
        }
        TreeMap<Long, String> next = new TreeMap<>();
        for (String c : children) {
            long s = ZkPaths.sequenceOf(c);
            if (s > applied) {
                next.put(s, c);
            }
        }
        for (Map.Entry<Long, String> e : next.entrySet()) {
            long s = e.getKey();
            byte[] data = written.remove(s);
            if (data == null) {
                data = zk.getData().forPath(ZkPaths.LOG + "/" + e.getValue());
            }
            applyEntry(LogCodec.decode(data));
            applied = s;
            entriesApplied.incrementAndGet();
        }
        written.keySet().removeIf(s -> s <= applied);
        return true;
    }

    private void applyEntry(LogCodec.Entry e) {
        List<Pending> w = waiting.remove(e.nonce());
        List<LogRequest> rs = e.requests();
        for (int i = 0; i < rs.size(); i++) {
            Object outcome;
            try {
                outcome = replica.apply(rs.get(i));
            } catch (RuntimeException ex) {
                LOG.error("member {}: applying a log request failed", id, ex);
                outcome = ex;
            }
            if (w != null) {
                if (outcome instanceof RuntimeException ex) {
                    w.get(i).done().completeExceptionally(ex);
                } else {
                    w.get(i).done().complete(outcome);
                }
            }
        }
    }

    private void rebuildFromSnapshot() throws Exception {
        ZkSnapshots.Snapshot snap = snapshots.read();
        replica.clear();
        replica.restore(snap.requests());
        applied = snap.seq();
        snapshotsLoaded.incrementAndGet();
        LOG.info("member {} rebuilt its state from the group's snapshot at log position {} ({} requests)", id,
                snap.seq(), snap.requests().size());
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops writing and following; calls still waiting fail as unavailable. Idempotent. */
    @Override
    public void close() {
        running = false;
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
        List<Pending> left = new ArrayList<>();
        submissions.drainTo(left);
        waiting.values().forEach(left::addAll);
        waiting.clear();
        fail(left, "controller " + id + " left the group");
    }
}
