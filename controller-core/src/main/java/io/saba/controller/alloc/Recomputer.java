package io.saba.controller.alloc;

import io.saba.controller.Metrics;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortRetry;
import io.saba.controller.fabric.PushOutcome;
import io.saba.controller.state.PortListener;
import io.saba.core.alloc.PortApps;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.Arrays;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coalesces state changes into recomputations. State changes mark ports dirty (cheap, under the controller's
 * lock); one thread repeatedly takes the whole dirty set, snapshots those ports, allocates each, and pushes to
 * the backend only the ports whose queue map or weights changed.
 *
 * <p>Why this bounds work: while a round runs, new events only add to the next round's set, so a burst of N
 * events costs at most (burst duration / round time) + 1 rounds, and each port is computed once per round from
 * the latest state — intermediate states are never pushed.
 */
public final class Recomputer implements PortListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Recomputer.class);

    /** What a round reads under the controller's lock. */
    public interface SnapshotSource {
        Snapshot snapshot(List<PortId> ports);
    }

    /** The plan and the applications at each requested port (empty: nobody crosses it any more). */
    public record Snapshot(LevelPlan plan, Map<PortId, PortApps> appsAt) {
    }

    /**
     * How long a round waits after the first event that dirtied it: what a client reports at once often arrives in
     * two calls (the first event alone, the rest after its acknowledgement), and both should land in one round
     * rather than the second waiting for the first round's push.
     */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /**
     * Ports snapshotted per lock acquisition: a port's snapshot is an array copy of its applications (about a
     * microsecond for a hundred), so the lock is held for tens of microseconds per chunk, while a round of thousands
     * of dirty ports takes it a few dozen times rather than once per handful of ports, each time behind whatever
     * batch of events holds it.
     */
    private static final int SNAPSHOT_CHUNK = 64;
    private final Allocator allocator;
    private final FabricBackend backend;
    private final Metrics metrics;
    private final java.util.function.ToIntFunction<PortId> queuesOf;
    /**
     * Ports to recompute, swapped for an empty set by each round. A plain set under its own lock: every connection
     * event adds a few ports here (under the controller's lock, so adders hardly ever contend), and a concurrent
     * set's per-element atomics cost more than the event's own bookkeeping.
     */
    private final Object dirtyLock = new Object();
    private Set<PortId> dirty = new HashSet<>();
    private volatile boolean anyDirty;
    private final Set<PortId> unknown = ConcurrentHashMap.newKeySet();
    private final AtomicLong oldestDirtyNanos = new AtomicLong();
    private final Semaphore wake = new Semaphore(0);
    private final Map<PortId, PortAllocation> current = new ConcurrentHashMap<>();
    private final List<Consumer<PortChanges>> watchers = new CopyOnWriteArrayList<>();
    private final AtomicLong version = new AtomicLong();
    private final AtomicLong completedRounds = new AtomicLong();
    /**
     * Ports whose last push or release failed, with how often in a row and why: they are marked dirty again after a
     * backoff (1 s doubling to 60 s), so a transient fault (an SMP timeout, a tc process killed) does not leave a
     * port unprogrammed until its applications happen to change.
     */
    private final Map<PortId, PortRetry> failures = new ConcurrentHashMap<>();
    /** The latest push and how it ended (null before the first), for the status pages. */
    private volatile PushOutcome lastPush;
    private final java.util.concurrent.ScheduledExecutorService retrier =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "saba-push-retry");
                t.setDaemon(true);
                return t;
            });
    private volatile SnapshotSource source;
    private volatile java.util.function.Predicate<PortId> owns = p -> true;
    /** Held across every backend call: {@link #fence()} waits on it. */
    private final Object pushLock = new Object();
    private volatile boolean running = true;
    private volatile boolean busy;
    private final long minRoundNanos;
    private long lastRoundStart;
    private final Thread thread;

    /**
     * @param minRoundInterval the least time between the starts of two rounds: events arriving meanwhile are
     *                         merged into one round (a port recomputed once, not once per event). It bounds the
     *                         recomputation rate and adds at most this much to the event-to-push lag.
     */
    public Recomputer(Allocator allocator, FabricBackend backend, Metrics metrics,
                      java.util.function.ToIntFunction<PortId> queuesOf, java.time.Duration minRoundInterval) {
        this.minRoundNanos = minRoundInterval.toNanos();
        this.allocator = allocator;
        this.backend = backend;
        this.metrics = metrics;
        this.queuesOf = queuesOf;
        this.thread = new Thread(this::loop, "saba-recompute");
        thread.setDaemon(true);
    }

    /** Starts the recompute thread once the state it reads exists. */
    public void start(SnapshotSource src) {
        this.source = src;
        thread.start();
    }

    @Override
    public void dirty(Collection<PortId> ports) {
        if (ports.isEmpty()) {
            return;
        }
        synchronized (dirtyLock) {
            dirty.addAll(ports);
            anyDirty = true;
        }
        oldestDirtyNanos.compareAndSet(0, System.nanoTime());
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    /**
     * Narrows the ports this controller programs (a controller group splits the fabric by switch); by default it
     * owns every port. Ports not owned are neither computed nor pushed; call {@link #fence()} after narrowing.
     */
    public void ownership(java.util.function.Predicate<PortId> ownedPorts) {
        this.owns = ownedPorts;
    }

    /**
     * Narrows the ports this controller programs to those of the nodes it holds (a controller group splits the
     * fabric by node: switches, and the hosts whose NICs are managed), and tells the backend, which may serve the
     * nodes' own agents. Call {@link #fence()} after it narrowed.
     */
    public void ownership(io.saba.controller.fabric.NodeOwnership nodes) {
        backend.ownership(nodes);
        this.owns = p -> nodes.programs(p.node());
    }

    /**
     * Waits until a push in flight has ended. After ownership narrowed and this returned, no backend call touches
     * a port no longer owned: the caller may then let another controller program it. The ports no longer owned
     * also leave {@link #current()} (what status pages and {@code saba_ports_configured} show): their
     * configuration is now whatever their new owner pushes. The backend hears of it before this returns
     * ({@link FabricBackend#fenced}), so what it serves for the nodes it lost (a host's agent) ends first too.
     */
    public void fence() {
        synchronized (pushLock) {
            // entering means no push holds the lock, and later pushes see the new ownership
            java.util.function.Predicate<PortId> owned = owns;
            current.keySet().removeIf(p -> !owned.test(p));
            // still under the lock: the backend lets go of what it lost (a host's agent session) before any other
            // controller can take it
            backend.fenced();
        }
    }

    /**
     * Ports whose configuration is unknown here, because another controller (or nobody) last programmed them: each
     * is pushed at the next round whatever was pushed before, or released if no application crosses it. The backend
     * is told first ({@link FabricBackend#retaken}).
     */
    public void retake(Collection<PortId> ports) {
        backend.retaken(Set.copyOf(ports));
        current.keySet().removeAll(ports);
        unknown.addAll(ports);
        dirty(ports);
    }

    public void addWatcher(Consumer<PortChanges> w) {
        watchers.add(w);
    }

    public void removeWatcher(Consumer<PortChanges> w) {
        watchers.remove(w);
    }

    /** The configuration last pushed per port. */
    public Map<PortId, PortAllocation> current() {
        return Map.copyOf(current);
    }

    public long version() {
        return version.get();
    }

    /** The latest push to the backend and its result; null before the first. */
    public PushOutcome lastPush() {
        return lastPush;
    }

    /** Ports whose pushes fail and are being retried, each with its latest failure. */
    public Map<PortId, PortRetry> retrying() {
        return Map.copyOf(failures);
    }

    /** Rounds completed so far (tests wait on this, never on time). */
    public long rounds() {
        return completedRounds.get();
    }

    /** True when no port is waiting to be recomputed. */
    public boolean idle() {
        return !busy && !anyDirty;
    }

    /**
     * Waits until every change made so far has been pushed (for tests and benchmarks; never on a request path).
     *
     * @return false on timeout
     */
    public boolean awaitQuiescent(java.time.Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            long rounds = rounds();
            if (idle()) {
                Thread.sleep(5);
                if (idle() && rounds() == rounds) {
                    return true;
                }
            }
            Thread.sleep(2);
        }
        return false;
    }

    private void loop() {
        while (running) {
            try {
                wake.tryAcquire(1, TimeUnit.SECONDS);
                wake.drainPermits();
                if (anyDirty) {
                    long oldest = oldestDirtyNanos.get();
                    long wait = Math.max(lastRoundStart + minRoundNanos, oldest == 0 ? 0 : oldest + LINGER_NANOS)
                            - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    lastRoundStart = System.nanoTime();
                    busy = true;
                    try {
                        round();
                    } finally {
                        busy = false;
                    }
                }
            } catch (InterruptedException e) {
                if (!running) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.error("recomputation failed; the fabric keeps its previous configuration", e);
                metrics.recomputeFailures.increment();
            }
        }
    }

    private void round() {
        long since = oldestDirtyNanos.getAndSet(0);
        Set<PortId> taken;
        synchronized (dirtyLock) {
            taken = dirty;
            dirty = new HashSet<>();
            anyDirty = false;
        }
        List<PortId> ports = new ArrayList<>(taken.size());
        java.util.function.Predicate<PortId> owned = owns;
        for (PortId p : taken) {
            if (owned.test(p)) {
                ports.add(p);
            }
        }
        long t0 = System.nanoTime();
        List<PortAllocation> changed = new ArrayList<>();
        List<PortAllocation> refreshed = new ArrayList<>();
        Set<PortId> released = new HashSet<>();
        // snapshot a few ports at a time: the controller's lock is held per chunk, not for the whole round, so
        // requests keep flowing while a big round runs. Ports are independent, and each chunk carries the plan
        // its levels came from; a later plan change marks the ports dirty again, so the latest state still wins.
        for (int from = 0; from < ports.size(); from += SNAPSHOT_CHUNK) {
            Snapshot snap = source.snapshot(ports.subList(from, Math.min(ports.size(), from + SNAPSHOT_CHUNK)));
            allocate(snap, changed, refreshed, released);
        }
        push(changed, refreshed, released);
        long end = System.nanoTime();
        metrics.recomputations.increment();
        metrics.recomputeSeconds.observeNanos(end - t0);
        if (since != 0) {
            metrics.pushLag.recordNanos(end - since);
        }
        completedRounds.incrementAndGet();
    }

    private void allocate(Snapshot snap, List<PortAllocation> changed, List<PortAllocation> refreshed,
                          Set<PortId> released) {
        for (Map.Entry<PortId, PortApps> e : snap.appsAt().entrySet()) {
            PortId port = e.getKey();
            boolean wasUnknown = unknown.remove(port);
            if (e.getValue().isEmpty()) {
                if (current.containsKey(port) || wasUnknown) {
                    released.add(port);
                }
                continue;
            }
            // outside the controller's lock: the snapshot is a copy
            PortAllocation a = allocator.allocatePort(port, queuesOf.applyAsInt(port), e.getValue(), snap.plan());
            PortAllocation before = current.get(port);
            if (before == null || wasUnknown || !sameSwitchConfig(before, a)) {
                changed.add(a);
            } else {
                refreshed.add(a); // same switch configuration; keep the fresh per-app weights for status
            }
        }
    }

    private void push(List<PortAllocation> changed, List<PortAllocation> refreshed, Set<PortId> released) {
        synchronized (pushLock) {
            // ownership may have moved while this round computed: push (and show) only what is still ours
            changed.removeIf(a -> !owns.test(a.port()));
            released.removeIf(p -> !owns.test(p));
            for (PortAllocation a : refreshed) {
                if (owns.test(a.port())) {
                    current.put(a.port(), a);
                }
            }
            pushOwned(changed, released);
        }
    }

    private void pushOwned(List<PortAllocation> changed, Set<PortId> released) {
        if (changed.isEmpty() && released.isEmpty()) {
            return;
        }
        List<PortAllocation> ok = new ArrayList<>();
        Map<PortId, String> failed = new HashMap<>();
        if (!changed.isEmpty()) {
            ApplyResult r = backend.apply(changed);
            metrics.backendPushes.increment();
            for (PortAllocation a : changed) {
                String why = r.failed().get(a.port());
                if (why != null) {
                    LOG.warn("backend {} could not configure {}: {}", backend.name(), a.port(), why);
                    failed.put(a.port(), why);
                } else {
                    failures.remove(a.port());
                    current.put(a.port(), a);
                    ok.add(a);
                }
            }
        }
        Set<PortId> gone = new HashSet<>();
        if (!released.isEmpty()) {
            ApplyResult r = backend.release(released);
            metrics.backendPushes.increment();
            for (PortId p : released) {
                String why = r.failed().get(p);
                if (why != null) {
                    failed.put(p, why);
                } else {
                    failures.remove(p);
                    current.remove(p);
                    gone.add(p);
                }
            }
        }
        failed.forEach(this::retryLater);
        PortChanges change = new PortChanges(version.incrementAndGet(), ok, gone);
        lastPush = new PushOutcome(Instant.now(), change.version(), ok.size(), gone.size(), failed);
        for (Consumer<PortChanges> w : watchers) {
            try {
                w.accept(change);
            } catch (RuntimeException e) {
                LOG.debug("watcher failed: {}", e.toString());
            }
        }
    }

    private void retryLater(PortId p, String why) {
        metrics.backendFailures.increment();
        int n = failures.merge(p, new PortRetry(1, why, Instant.now()),
                (before, now) -> new PortRetry(before.attempts() + 1, why, now.lastFailed())).attempts();
        long delayMillis = Math.min(60_000, 1000L << Math.min(n - 1, 6));
        try {
            retrier.schedule(() -> dirty(List.of(p)), delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // closing: nothing to retry for
        }
    }

    /** What the switch sees: the level→queue map and the queue weights (per-app weights are bookkeeping). */
    static boolean sameSwitchConfig(PortAllocation a, PortAllocation b) {
        return a.queueOfLevel().equals(b.queueOfLevel()) && Arrays.equals(a.queueWeights(), b.queueWeights());
    }

    @Override
    public void close() {
        running = false;
        retrier.shutdownNow();
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
