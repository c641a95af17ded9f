package io.saba.controller.estimate;

import io.saba.controller.alloc.PortChanges;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.estimate.Observation;
import io.saba.wire.WorkSignals;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The share of the link each application had over time, as this controller's weights gave it, and the units it
 * reports turned into {@link Observation}s at that share.
 *
 * <p>What "share" means here: at each port, the application's weight over the sum of the weights of the Saba
 * applications there, which is what a work-conserving port gives it while every one of them is busy and nothing
 * else uses the link (an application alone on a port: the whole link); its share is the smallest over the ports it
 * crosses, its bottleneck. It is taken from the weights pushed (every {@link PortChanges}), not measured: an
 * application whose neighbours are idle gets more than its weight, so its estimate then reads as less sensitive
 * than it is. Byte counters (the Linux backend's {@code tc -s class}, InfiniBand port counters) would measure it.
 *
 * <p>Kept per application as a step function of wall-clock time (a unit's end time is the engine's wall clock),
 * bounded; a unit's share is the mean over its run, submission to completion. Pushes are {@linkplain #offer
 * offered} and applied apart from the allocation loop, every {@link #APPLY_MILLIS} ms and before an observation is
 * made: a push changes thousands of ports with hundreds of applications each, and following each share there cost
 * the loop more than allocating did (most of the recompute thread in the controller bench). A port pushed twice between
 * two passes counts once, at its latest weights, so the step function's resolution is a pass, a second (units last
 * seconds). Not logged: the share is fixed into each observation when it arrives, and the observation is what the
 * log carries.
 *
 * <p>Which network time a unit's observation rests on: where the unit reports the bytes its busiest host received
 * ({@link WorkSignals#BUSIEST_HOST_IN}) and the topology knows the capacity of the application's ports, those
 * bytes over the slowest such port's rate, at the unit's share, against its wall duration
 * ({@link Observation#ofLinkBytes}); otherwise (a discovered fabric without rates, an older plugin) the engine's
 * network wait against its task run time. The rate is that of the slowest port the application crossed
 * since the controller first saw it (kept after it left, for its last units): the host links, where a testbed or a
 * rack is slowest. Where the fabric counts bytes per queue ({@link QueueCounters}) and the application had a queue
 * to itself ({@link #ownQueues}), the unit's link bytes are the larger of the reported and the counted.
 */
public final class AppShares implements AutoCloseable {
    /**
     * How often offered pushes are applied, at most (ms). A second, not less: a port pushed several times between two
     * passes is followed once, while at 50 ms the pass follows nearly every push and the share tracking costs more CPU
     * per event than allocating. What it costs: a share change is dated up to a second late, against units (stages,
     * tasks) that last seconds, and a change undone within the second is not seen.
     */
    static final long APPLY_MILLIS = 1000;
    /** Share changes kept per application. */
    static final int STEPS = 256;
    /**
     * How long the history of an application with no weight anywhere is kept: its last units may arrive after it
     * left (the controller takes them as long, {@code ControllerState.DEPARTED_NANOS}).
     */
    static final long IDLE_MILLIS = 120_000;
    /**
     * The byte kinds that crossed the network (both engines' remote shuffle reads, Spark's task results): what an
     * observation shows as moved.
     */
    static final Set<String> NETWORK_BYTES = Set.of("shuffle_remote_read", "task_result");

    /** A port's capacity in Gbit/s, empty where the topology does not know it. */
    private final Function<PortId, OptionalDouble> capacityGbps;
    /** Each application's slowest port so far, Gbit/s (only where the capacity is known). */
    private final Map<String, Double> slowestGbps = new HashMap<>();
    /** Each port's allocation as last pushed (its application weights are immutable), with their sum. */
    private final Map<PortId, Port> at = new HashMap<>();
    /** Each application with a weight somewhere: the ports it crosses and its smallest share. */
    private final Map<String, Bottleneck> apps = new HashMap<>();
    private final Map<String, ArrayDeque<Step>> history = new HashMap<>();
    /** Pushes offered and not yet applied: each port's latest allocation (null: released), and when. */
    private final Object pendingLock = new Object();
    private Map<PortId, PortAllocation> pending = new HashMap<>();
    private long pendingMillis;
    /** Applies offered pushes on a thread of its own, started by the first offer. */
    private ScheduledExecutorService applier;
    private boolean closed;

    /** @param capacityGbps a port's capacity (the controller's {@code PathResolver}); empty where unknown */
    public AppShares(Function<PortId, OptionalDouble> capacityGbps) {
        this.capacityGbps = capacityGbps;
    }

    /** Takes a push to apply soon (cheap: the allocation loop calls it). */
    public void offer(PortChanges c, long unixMillis) {
        synchronized (pendingLock) {
            if (applier == null && !closed) {
                applier = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "saba-shares");
                    t.setDaemon(true);
                    return t;
                });
                applier.scheduleWithFixedDelay(this::drain, APPLY_MILLIS, APPLY_MILLIS, TimeUnit.MILLISECONDS);
            }
            for (PortId p : c.released()) {
                pending.put(p, null);
            }
            for (PortAllocation a : c.changed()) {
                pending.put(a.port(), a);
            }
            pendingMillis = unixMillis;
        }
    }

    /** Applies what was offered since the last pass, as one push at the time of the latest. */
    public synchronized void drain() {
        Map<PortId, PortAllocation> batch;
        long at;
        synchronized (pendingLock) {
            if (pending.isEmpty()) {
                return;
            }
            batch = pending;
            at = pendingMillis;
            pending = new HashMap<>();
        }
        List<PortAllocation> changed = new ArrayList<>();
        Set<PortId> released = new HashSet<>();
        batch.forEach((p, a) -> {
            if (a == null) {
                released.add(p);
            } else {
                changed.add(a);
            }
        });
        changed(new PortChanges(0, changed, released), at);
    }

    @Override
    public void close() {
        synchronized (pendingLock) {
            closed = true;
            if (applier != null) {
                applier.shutdownNow();
            }
        }
    }

    /** From {@code unixMillis} on, the application had {@code share} (NaN: no weight on any port). */
    private record Step(long unixMillis, double share) {
    }

    private record Port(PortAllocation allocation, double sum) {
        static Port of(PortAllocation a) {
            double sum = 0;
            for (double w : a.appWeights().values()) {
                sum += w;
            }
            return new Port(a, sum);
        }

        /** The application's weight among the Saba applications here; NaN without one. */
        double shareOf(String app) {
            Double w = allocation.appWeights().get(app);
            return w == null || !(sum > 0) ? Double.NaN : w / sum;
        }
    }

    /**
     * An application's ports and its smallest share over them, kept as ports change: a push changes thousands of
     * ports while an application crosses hundreds, so its ports are searched again only when the port that held
     * the smallest share rose or left, and its port set changes only when it joins or leaves a port.
     */
    private final class Bottleneck {
        final String app;
        final Set<PortId> ports = new HashSet<>();
        double min = Double.NaN;
        PortId argmin;
        boolean stale;
        /** Listed among the applications whose bottleneck this push may have moved. */
        boolean touched;

        Bottleneck(String app) {
            this.app = app;
        }

        void at(PortId p, double share) {
            if (share > 0 && !(share >= min)) {
                min = share;
                argmin = p;
            } else if (p.equals(argmin) && !(share == min)) {
                stale = true; // the smallest rose (or is gone): another port may hold it now
            }
        }

        void left(PortId p) {
            ports.remove(p);
            stale |= p.equals(argmin);
        }

        /** The smallest positive share over its ports, searched again if it may have risen. */
        double min() {
            if (stale) {
                min = Double.NaN;
                argmin = null;
                for (PortId p : ports) {
                    double share = at.get(p).shareOf(app);
                    if (share > 0 && !(share >= min)) {
                        min = share;
                        argmin = p;
                    }
                }
                stale = false;
            }
            return min;
        }
    }

    private Bottleneck touch(String app, List<Bottleneck> touched) {
        Bottleneck b = apps.computeIfAbsent(app, Bottleneck::new);
        if (!b.touched) {
            b.touched = true;
            touched.add(b);
        }
        return b;
    }

    /** Records what a push changed, at {@code unixMillis} (now; {@link #offer} defers it). */
    public synchronized void changed(PortChanges c, long unixMillis) {
        List<Bottleneck> touched = new ArrayList<>();
        for (PortId p : c.released()) {
            Port gone = at.remove(p);
            if (gone != null) {
                for (String app : gone.allocation().appWeights().keySet()) {
                    touch(app, touched).left(p);
                }
            }
        }
        for (PortAllocation a : c.changed()) {
            Port now = Port.of(a);
            Port was = at.put(a.port(), now);
            Map<String, Double> before = was == null ? Map.of() : was.allocation().appWeights();
            for (String app : before.keySet()) {
                if (!a.appWeights().containsKey(app)) {
                    touch(app, touched).left(a.port());
                }
            }
            for (Map.Entry<String, Double> e : a.appWeights().entrySet()) {
                Bottleneck b = touch(e.getKey(), touched);
                if (!before.containsKey(e.getKey())) {
                    b.ports.add(a.port());
                    OptionalDouble gbps = capacityGbps.apply(a.port());
                    if (gbps.isPresent() && gbps.getAsDouble() > 0) {
                        slowestGbps.merge(e.getKey(), gbps.getAsDouble(), Math::min);
                    }
                }
                b.at(a.port(), now.sum() > 0 ? e.getValue() / now.sum() : Double.NaN);
            }
        }
        for (Bottleneck b : touched) {
            b.touched = false;
            if (b.ports.isEmpty()) {
                apps.remove(b.app);
                record(b.app, Double.NaN, unixMillis);
            } else {
                record(b.app, b.min(), unixMillis);
            }
        }
        if (history.size() > 2 * apps.size() + 64) {
            forgetIdle(unixMillis); // amortised: the applications gone are at most half of those kept
        }
    }

    /** Forgets applications without a weight anywhere for {@link #IDLE_MILLIS}, whether or not they report units. */
    private void forgetIdle(long unixMillis) {
        history.values().removeIf(steps -> Double.isNaN(steps.getLast().share())
                && unixMillis - steps.getLast().unixMillis() > IDLE_MILLIS);
        slowestGbps.keySet().retainAll(history.keySet());
    }

    private void record(String app, double share, long unixMillis) {
        ArrayDeque<Step> steps = history.computeIfAbsent(app, x -> new ArrayDeque<>());
        Step last = steps.peekLast();
        if (last != null && Double.compare(last.share(), share) == 0) {
            return;
        }
        if (last != null && last.unixMillis() >= unixMillis) {
            steps.removeLast(); // the same instant (or a clock step back): the later value holds
        }
        if (steps.size() == STEPS) {
            steps.removeFirst();
        }
        steps.addLast(new Step(unixMillis, share));
    }

    /**
     * The application's mean share over [from, to] (wall clock), over the part of it where the application had a
     * weight; its share at {@code to} for a unit of no duration; NaN when it had none in that time.
     */
    public synchronized double meanShare(String app, long from, long to) {
        ArrayDeque<Step> steps = history.get(app);
        if (steps == null || steps.isEmpty()) {
            return Double.NaN;
        }
        double weighted = 0;
        double known = 0;
        double atEnd = Double.NaN;
        Iterator<Step> it = steps.iterator();
        Step s = it.next();
        while (s != null) {
            Step next = it.hasNext() ? it.next() : null;
            long start = Math.max(s.unixMillis(), from);
            long end = Math.min(next == null ? Long.MAX_VALUE : next.unixMillis(), to);
            if (s.unixMillis() <= to) {
                atEnd = s.share();
            }
            if (end > start && !Double.isNaN(s.share())) {
                weighted += s.share() * (end - start);
                known += end - start;
            }
            s = next;
        }
        return known > 0 ? weighted / known : atEnd;
    }

    /**
     * A reported unit as the estimator sees it, at the application's mean share while it ran, with its network bytes:
     * from its busiest host's bytes over the link rate against its wall duration where it reports them and the rate
     * is known, else from its network wait (clipped to the run time) against its run time. Null when it has no
     * time, or when it used the network while the application had no weight anywhere (it cannot be placed on a
     * curve).
     */
    public Observation observation(String app, WorkSignals s) {
        return observation(app, s, -1);
    }

    /**
     * As {@link #observation(String, WorkSignals)}, with the bytes the fabric counted on the application's busiest
     * link while the unit ran ({@link QueueCounters#busiest}; -1: not counted): the larger of those and the
     * reported ones is the unit's link bytes, as the engine's metrics miss some (see {@link QueueCounters}).
     */
    public Observation observation(String app, WorkSignals s, long countedLinkBytes) {
        long bytes = 0;
        for (String kind : NETWORK_BYTES) {
            bytes += Math.max(0, s.bytes(kind));
        }
        drain(); // the shares (and ports) up to now
        Long reported = s.bytes().get(WorkSignals.BUSIEST_HOST_IN);
        Long busiest = reported == null && countedLinkBytes < 0 ? null
                : Math.max(reported == null ? 0 : reported, countedLinkBytes);
        double gbps = linkGbps(app);
        if (busiest != null && gbps > 0 && s.durationMillis() > 0) {
            long onLink = Math.max(0, busiest);
            double share = onLink == 0 ? 1.0 : meanShare(app, s);
            return share > 0 ? Observation.ofLinkBytes(s.durationMillis(), onLink, gbps * 1e9, Math.min(1, share),
                    bytes) : null;
        }
        if (s.runMillis() <= 0) {
            return null;
        }
        long wait = Math.max(0, Math.min(s.networkWaitMillis(), s.runMillis()));
        if (wait == 0) {
            return new Observation(s.runMillis(), 0, 1.0, bytes); // the share does not matter to a unit that never waited
        }
        double share = meanShare(app, s);
        return share > 0 ? new Observation(s.runMillis(), wait, Math.min(1, share), bytes) : null;
    }

    private double meanShare(String app, WorkSignals s) {
        return meanShare(app, s.endUnixMillis() - Math.max(0, s.durationMillis()), s.endUnixMillis());
    }

    /** The ports some application has a weight on, as last pushed (a copy). */
    public synchronized Set<PortId> ports() {
        drain();
        return new HashSet<>(at.keySet());
    }

    /**
     * Where the application is alone in its queue, as last pushed: port → that queue, whose byte counters then are
     * its bytes. Not where its queue is the default level's (level 0's applications are not listed on a port) nor
     * shared with another application's level; none for an application at level 0 or unknown ({@code levelOf}
     * negative).
     */
    public synchronized Map<PortId, Integer> ownQueues(String app, ToIntFunction<String> levelOf) {
        drain();
        Bottleneck b = apps.get(app);
        int level = levelOf.applyAsInt(app);
        if (b == null || level <= 0) {
            return Map.of();
        }
        Map<PortId, Integer> out = new HashMap<>();
        for (PortId p : b.ports) {
            PortAllocation a = at.get(p).allocation();
            Integer queue = a.queueOfLevel().get(level);
            if (queue == null || queue.equals(a.queueOfLevel().get(0))) {
                continue;
            }
            boolean alone = true;
            for (String other : a.appWeights().keySet()) {
                if (!other.equals(app) && queue.equals(a.queueOfLevel().get(levelOf.applyAsInt(other)))) {
                    alone = false;
                    break;
                }
            }
            if (alone) {
                out.put(p, queue);
            }
        }
        return out;
    }

    /** The rate of the slowest port the application crossed, Gbit/s; NaN when no capacity of its ports is known. */
    public synchronized double linkGbps(String app) {
        return slowestGbps.getOrDefault(app, Double.NaN);
    }

    /** Forgets the applications {@code keep} refuses (gone for good). */
    public synchronized void retain(Predicate<String> keep) {
        history.keySet().removeIf(keep.negate());
        slowestGbps.keySet().removeIf(keep.negate());
    }

    /** Applications with a share history. */
    public synchronized int size() {
        return history.size();
    }
}
