package io.saba.controller.cluster;

import io.saba.controller.BatchResult;
import io.saba.controller.Registration;
import io.saba.controller.StatusView;
import io.saba.controller.ControllerApi;
import io.saba.controller.GroupMembership;
import io.saba.controller.Metrics;
import io.saba.controller.SabaController;
import io.saba.controller.alloc.AllocationChange;
import io.saba.controller.state.AppView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.Mutation;
import io.saba.core.table.ModelCatalog;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.model.SensitivityModel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of a controller group on ZooKeeper: the group's shared log orders every write, every member applies
 * the whole log to its own replica (so any member answers any call), and each member programs only the switches it
 * owns ({@link SwitchOwnership}). One member, elected with a Curator {@link LeaderLatch}, plans levels, expires
 * leases, adopts the table and writes snapshots so the log can be trimmed.
 *
 * <p>Threads: a writer (group commit: the calls waiting are written as one entry), a follower (applies entries
 * in order and answers the waiting calls), an ownership thread, and a duty thread (heartbeat flushes; the
 * leader's work).
 */
public final class ZkControllerGroup implements GroupMembership, ControllerApi {
    private static final Logger LOG = LoggerFactory.getLogger(ZkControllerGroup.class);
    /** Requests per entry and a size budget well under ZooKeeper's default 1 MB node limit. */
    private static final int MAX_REQUESTS_PER_ENTRY = 2_000;
    private static final int ENTRY_BYTES = 512 * 1024;
    private static final int SNAPSHOT_CHUNK = 512 * 1024;
    private static final long CALL_TIMEOUT_MILLIS = 10_000;

    private final ClusterSettings settings;
    private final io.saba.core.topology.Topology topology;
    private final OwnershipListener ownershipListener;
    private CuratorFramework zk;
    private Replica replica;
    private SabaController controller;
    private SwitchOwnership ownership;
    private LeaderLatch latch;
    private SortedMap<String, SensitivityModel> configuredTable;
    private final BlockingQueue<Pending> submissions = new ArrayBlockingQueue<>(100_000);
    private final Map<String, List<Pending>> waiting = new ConcurrentHashMap<>();
    private final Map<Long, byte[]> written = new ConcurrentHashMap<>();
    private final Map<String, String> renewals = new ConcurrentHashMap<>();
    private final AtomicLong nonces = new AtomicLong();
    private final Semaphore followerWake = new Semaphore(0);
    private final Watcher wakeFollower = e -> wakeFollower();
    private final List<Thread> threads = new ArrayList<>();
    private ScheduledExecutorService duties;
    private volatile boolean running;
    private volatile boolean connected;
    private volatile long applied = -1;
    private volatile long caughtUpSession = -1;
    private volatile boolean snapshotWanted;
    private volatile Snapshot captured;
    private long lastSnapshotSeq = -1;
    private long lastSnapshotNanos = System.nanoTime();
    private long publishedApplied = -2;
    private long lastRenewFlush;
    private final AtomicLong entriesApplied = new AtomicLong();
    private final AtomicLong snapshotsLoaded = new AtomicLong();

    private record Pending(LogRequest request, CompletableFuture<Object> done) {
    }

    private record Snapshot(long seq, List<LogRequest> requests) {
    }

    /**
     * @param topology every member's topology (the same everywhere): its switches are split among the members
     * @param listener told when this member starts and stops programming a switch (tests; may log)
     */
    public ZkControllerGroup(ClusterSettings settings, io.saba.core.topology.Topology topology,
                             OwnershipListener listener) {
        this.settings = settings;
        this.topology = topology;
        this.ownershipListener = listener;
    }

    public ZkControllerGroup(ClusterSettings settings, io.saba.core.topology.Topology topology) {
        this(settings, topology, new OwnershipListener() {
            @Override
            public void started(String member, String sw, long nanos) {
                LOG.info("member {} programs switch {}", member, sw);
            }

            @Override
            public void stopped(String member, String sw, long nanos) {
                LOG.info("member {} no longer programs switch {}", member, sw);
            }
        });
    }

    @Override
    public ControllerApi join(SabaController replicaController, ModelCatalog configured) {
        this.controller = replicaController;
        this.replica = new Replica(replicaController);
        this.configuredTable = new TreeMap<>(configured.models());
        int sessionMs = (int) settings.sessionTimeout().toMillis();
        zk = CuratorFrameworkFactory.builder().connectString(settings.connect()).namespace(settings.namespace())
                .sessionTimeoutMs(sessionMs).connectionTimeoutMs(Math.min(sessionMs, 15_000))
                // the servers named in the URI, and only those: Curator would otherwise replace them by the
                // addresses the ensemble advertises, bypassing a proxy or NAT the operator put in between
                .ensembleTracker(false)
                .retryPolicy(new ExponentialBackoffRetry(100, 3, 1_000)).build();
        zk.getConnectionStateListenable().addListener((c, state) -> connectionChanged(state));
        zk.start();
        running = true;
        try {
            if (!zk.blockUntilConnected(Math.max(15_000, sessionMs), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + settings.connect() + " (cluster zk://"
                        + settings.connect() + "/" + settings.namespace() + ")");
            }
            connected = true;
            for (String p : List.of(ZkPaths.LOG, ZkPaths.MEMBERS, ZkPaths.OWNERS, ZkPaths.SNAPSHOTS)) {
                try {
                    zk.create().creatingParentContainersIfNeeded().forPath(p, new byte[0]);
                } catch (KeeperException.NodeExistsException e) {
                    // another member made it
                }
            }
            ownership = new SwitchOwnership(zk, "/" + settings.namespace(), settings.id(), topology.switches(), controller.recomputer(),
                    sw -> controller.repush(topology.switchPorts().stream().filter(p -> p.node().equals(sw))
                            .toList()), this::caughtUp, ownershipListener);
            start(this::follow, "saba-group-follower-");
            start(this::writeLoop, "saba-group-writer-");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!caughtUp() && System.nanoTime() < end) {
                Thread.sleep(5);
            }
            ownership.start();
            latch = new LeaderLatch(zk, ZkPaths.LEADER, settings.id());
            latch.start();
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
                settings.connect(), settings.namespace(), applied);
        return this;
    }

    private void start(Runnable r, String name) {
        Thread t = new Thread(r, name + settings.id());
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void connectionChanged(ConnectionState state) {
        if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
            connected = false;
            if (ownership != null) {
                ownership.disconnected();
            }
            LOG.warn("member {}: ZooKeeper connection {}; not programming the fabric until it is back",
                    settings.id(), state);
        } else if (state.isConnected()) {
            connected = true;
            if (ownership != null) {
                ownership.reconnected();
            }
            wakeFollower();
        }
    }

    /** True once the follower has read the whole log in this session (claims wait for it: no stale pushes). */
    private boolean caughtUp() {
        try {
            return connected && caughtUpSession == zk.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return false;
        }
    }

    /** This member's id in the group. */
    public String id() {
        return settings.id();
    }

    /** Switches this member programs now. */
    public java.util.Set<String> programming() {
        return ownership == null ? java.util.Set.of() : ownership.programming();
    }

    public boolean isLeader() {
        return latch != null && latch.hasLeadership();
    }

    /** Times this member rebuilt its replica from the group's snapshot (joining after a trim, or after LOST). */
    public long snapshotsLoaded() {
        return snapshotsLoaded.get();
    }

    /** The last log sequence applied here. */
    public long applied() {
        return applied;
    }

    // ---- the log: writing (group commit) ----

    private CompletableFuture<Object> submit(LogRequest r) {
        CompletableFuture<Object> f = new CompletableFuture<>();
        if (!running || !connected) {
            f.completeExceptionally(ControllerException.unavailable("controller " + settings.id()
                    + " is cut off from the group's ZooKeeper; try another controller"));
        } else if (!submissions.offer(new Pending(r, f))) {
            f.completeExceptionally(ControllerException.unavailable("controller " + settings.id()
                    + " has too many calls waiting for the group's log"));
        }
        return f;
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
                fail(batch, "controller " + settings.id() + " is closing");
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
        String nonce = settings.id() + "-" + nonces.incrementAndGet();
        List<LogRequest> requests = new ArrayList<>(entry.size());
        for (Pending p : entry) {
            requests.add(p.request());
        }
        byte[] data = LogCodec.encode(nonce, requests);
        waiting.put(nonce, entry);
        try {
            // protected: after a lost connection Curator finds the entry it may have written instead of writing it
            // again, so a retried entry is never applied twice
            String path = zk.create().withProtection().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .forPath(ZkPaths.ENTRY_PREFIX, data);
            written.put(ZkPaths.sequenceOf(path), data);
            wakeFollower();
        } catch (Exception e) {
            // the entry may still have been written (a connection lost after the commit): if it is, the follower
            // applies it like any other and finds no one waiting
            List<Pending> w = waiting.remove(nonce);
            if (w != null) {
                fail(w, "controller " + settings.id() + " could not write to the group's log (" + e + ")");
            }
        }
    }

    private static void fail(List<Pending> ps, String why) {
        for (Pending p : ps) {
            p.done().completeExceptionally(ControllerException.unavailable(why));
        }
    }

    // ---- the log: following ----

    private void wakeFollower() {
        if (followerWake.availablePermits() == 0) {
            followerWake.release();
        }
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
                    captured = new Snapshot(applied, replica.asRequests());
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running) {
                    LOG.debug("member {}: reading the log failed ({}); retrying", settings.id(), e.toString());
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
        long trimmed = readLong(zk.getData().forPath(ZkPaths.LOG), -1);
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
                LOG.error("member {}: applying a log request failed", settings.id(), ex);
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
        long seq = readLong(zk.getData().forPath(ZkPaths.SNAPSHOT), -1);
        List<String> chunks = zk.getChildren().forPath(ZkPaths.snapshot(seq));
        chunks.sort(null);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String c : chunks) {
            all.write(zk.getData().forPath(ZkPaths.snapshot(seq) + "/" + c));
        }
        LogCodec.Entry snap = LogCodec.decode(all.toByteArray());
        replica.clear();
        for (LogRequest r : snap.requests()) {
            replica.apply(r);
        }
        applied = seq;
        snapshotsLoaded.incrementAndGet();
        LOG.info("member {} rebuilt its state from the group's snapshot at log position {} ({} requests)",
                settings.id(), seq, snap.requests().size());
    }

    // ---- duties: heartbeat flushes for everyone, the rest for the leader ----

    private void duties() {
        try {
            if (!connected) {
                return;
            }
            long now = System.nanoTime();
            long renewEvery = Math.max(50, Math.min(1_000, leaseMillis() / 6));
            if (now - lastRenewFlush >= TimeUnit.MILLISECONDS.toNanos(renewEvery) && !renewals.isEmpty()) {
                lastRenewFlush = now;
                Map<String, String> batch = new HashMap<>(renewals);
                batch.forEach(renewals::remove);
                submit(new LogRequest.Renew(batch));
            }
            if (applied != publishedApplied && zk.checkExists().forPath(ZkPaths.member(settings.id())) != null) {
                zk.setData().forPath(ZkPaths.member(settings.id()), Long.toString(applied)
                        .getBytes(StandardCharsets.UTF_8));
                publishedApplied = applied;
            }
            if (latch != null && latch.hasLeadership() && caughtUp()) {
                lead();
            }
        } catch (Exception e) {
            LOG.debug("member {}: duty round failed: {}", settings.id(), e.toString());
        }
    }

    private void lead() throws Exception {
        if (replica.table() == null && !configuredTable.isEmpty()) {
            await(submit(new LogRequest.Table(configuredTable)));
            LOG.info("controller group adopted member {}'s sensitivity table ({} workloads)", settings.id(),
                    configuredTable.size());
        }
        SortedMap<String, SensitivityModel> models = new TreeMap<>(controller.workloadModels());
        if (!models.equals(replica.plannedFor())) {
            LevelAssignment a = controller.planLevels(models).levels();
            await(submit(new LogRequest.Plan(a.levelOfApp(), a.levelCentroids(), models)));
        }
        Map<String, String> expired = controller.expiredApplications();
        if (!expired.isEmpty()) {
            await(submit(new LogRequest.Expire(expired)));
            LOG.info("controller group: leases of {} ran out", expired.keySet());
        }
        Snapshot s = captured;
        if (s != null) {
            captured = null;
            writeSnapshot(s);
        } else if (applied > lastSnapshotSeq && (entriesApplied.get() >= 1_000
                || System.nanoTime() - lastSnapshotNanos > TimeUnit.SECONDS.toNanos(10))) {
            snapshotWanted = true;
            wakeFollower();
        }
    }

    /** Writes the snapshot in chunks, points to it, then trims what every member has applied. */
    private void writeSnapshot(Snapshot s) throws Exception {
        byte[] data = LogCodec.encode("snapshot", s.requests());
        String dir = ZkPaths.snapshot(s.seq());
        if (zk.checkExists().forPath(dir) == null) {
            zk.create().forPath(dir);
            for (int i = 0, c = 0; i < data.length || c == 0; i += SNAPSHOT_CHUNK, c++) {
                byte[] chunk = java.util.Arrays.copyOfRange(data, i, Math.min(data.length, i + SNAPSHOT_CHUNK));
                zk.create().forPath(String.format("%s/c-%05d", dir, c), chunk);
            }
        }
        byte[] pointer = Long.toString(s.seq()).getBytes(StandardCharsets.UTF_8);
        if (zk.checkExists().forPath(ZkPaths.SNAPSHOT) == null) {
            zk.create().forPath(ZkPaths.SNAPSHOT, pointer);
        } else {
            zk.setData().forPath(ZkPaths.SNAPSHOT, pointer);
        }
        lastSnapshotSeq = s.seq();
        lastSnapshotNanos = System.nanoTime();
        entriesApplied.set(0);
        for (String old : zk.getChildren().forPath(ZkPaths.SNAPSHOTS)) {
            if (ZkPaths.sequenceOf(old) != s.seq()) {
                zk.delete().deletingChildrenIfNeeded().inBackground().forPath(ZkPaths.SNAPSHOTS + "/" + old);
            }
        }
        long upTo = s.seq();
        for (String m : zk.getChildren().forPath(ZkPaths.MEMBERS)) {
            upTo = Math.min(upTo, readLong(zk.getData().forPath(ZkPaths.member(m)), -1));
        }
        if (upTo <= readLong(zk.getData().forPath(ZkPaths.LOG), -1)) {
            return;
        }
        zk.setData().forPath(ZkPaths.LOG, Long.toString(upTo).getBytes(StandardCharsets.UTF_8));
        int deleted = 0;
        for (String c : zk.getChildren().forPath(ZkPaths.LOG)) {
            if (ZkPaths.sequenceOf(c) <= upTo) {
                zk.delete().inBackground().forPath(ZkPaths.LOG + "/" + c);
                deleted++;
            }
        }
        LOG.debug("controller group: snapshot at {}, trimmed {} log entries up to {}", s.seq(), deleted, upTo);
    }

    private static long readLong(byte[] data, long absent) {
        if (data == null || data.length == 0) {
            return absent;
        }
        try {
            return Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    private long leaseMillis() {
        return controller.leaseMillis();
    }

    // ---- ControllerApi: writes go through the log, reads come from the replica ----

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

    @Override
    public Registration register(String tenant, Mutation.Register r) {
        Registration reg = (Registration) await(submit(
                new LogRequest.Call(tenant, LogRequest.Kind.REGISTER, List.of(r))));
        // a new workload has level 0 until the leader's plan covers it: wait briefly, so the answer has its level
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (!controller.plan().levelOfWorkload().containsKey(r.workload()) && System.nanoTime() < end) {
            sleepQuietly(2);
        }
        AppView v = controller.app(r.appId());
        return v == null ? reg : new Registration(v.level(), reg.leaseMillis(), reg.workloadKnown());
    }

    @Override
    public Registration heartbeat(String tenant, String appId) {
        Registration reg = controller.heartbeat(tenant, appId);
        renewals.put(appId, tenant);
        return reg;
    }

    @Override
    public boolean deregister(String tenant, String appId) {
        return (Boolean) await(submit(new LogRequest.Call(tenant, LogRequest.Kind.DEREGISTER,
                List.of(new Mutation.Deregister(appId, "deregistered")))));
    }

    @Override
    public int connectionEvent(String tenant, Mutation m) {
        return (Integer) await(submit(new LogRequest.Call(tenant, LogRequest.Kind.EVENT, List.of(m))));
    }

    @Override
    public BatchResult batch(String tenant, List<Mutation> events) {
        return (BatchResult) await(submit(new LogRequest.Call(tenant, LogRequest.Kind.BATCH,
                events)));
    }

    @Override
    public int reloadTable(String json) {
        ModelCatalog c = ModelCatalog.parse(json, "reloaded table");
        await(submit(new LogRequest.Table(new TreeMap<>(c.models()))));
        return c.size();
    }

    /** Applications and levels of the whole group; ports: only those this member programs. */
    @Override
    public StatusView status(boolean withConnections) {
        return controller.status(withConnections);
    }

    @Override
    public void addWatcher(Consumer<AllocationChange> w) {
        controller.addWatcher(w);
    }

    @Override
    public void removeWatcher(Consumer<AllocationChange> w) {
        controller.removeWatcher(w);
    }

    @Override
    public Metrics metrics() {
        return controller.metrics();
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops programming, hands its switches over, leaves the group; calls still waiting fail as unavailable. */
    @Override
    public void close() {
        running = false;
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
        List<Pending> left = new ArrayList<>();
        submissions.drainTo(left);
        waiting.values().forEach(left::addAll);
        waiting.clear();
        fail(left, "controller " + settings.id() + " left the group");
        if (zk != null) {
            zk.close();
        }
    }
}
