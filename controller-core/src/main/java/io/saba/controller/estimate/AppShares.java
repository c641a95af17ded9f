package io.saba.controller.estimate;

import io.saba.controller.alloc.PortChanges;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.estimate.Observation;
import io.saba.wire.WorkSignals;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

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
 * bounded; a unit's share is the mean over its run, submission to completion. Not logged: the share is fixed into
 * each observation when it arrives, and the observation is what the log carries.
 */
public final class AppShares {
    /** Share changes kept per application. */
    static final int STEPS = 256;
    /**
     * How long the history of an application with no weight anywhere is kept: its last units may arrive after it
     * left (the controller takes them as long, {@code ControllerState.DEPARTED_NANOS}).
     */
    static final long IDLE_MILLIS = 120_000;
    /** The byte kinds that crossed the network (both engines' remote shuffle reads, Spark's task results). */
    static final Set<String> NETWORK_BYTES = Set.of("shuffle_remote_read", "task_result");

    private final Map<PortId, Map<String, Double>> sharesAt = new HashMap<>();
    private final Map<String, Set<PortId>> portsOf = new HashMap<>();
    private final Map<String, ArrayDeque<Step>> history = new HashMap<>();

    /** From {@code unixMillis} on, the application had {@code share} (NaN: no weight on any port). */
    private record Step(long unixMillis, double share) {
    }

    /** Records what a push changed, at {@code unixMillis}. */
    public synchronized void changed(PortChanges c, long unixMillis) {
        Set<String> touched = new HashSet<>();
        for (PortId p : c.released()) {
            Map<String, Double> gone = sharesAt.remove(p);
            if (gone != null) {
                gone.keySet().forEach(app -> leave(app, p));
                touched.addAll(gone.keySet());
            }
        }
        for (PortAllocation a : c.changed()) {
            Map<String, Double> now = sharesOf(a);
            Map<String, Double> was = sharesAt.put(a.port(), now);
            if (was != null) {
                for (String app : was.keySet()) {
                    if (!now.containsKey(app)) {
                        leave(app, a.port());
                    }
                }
                touched.addAll(was.keySet());
            }
            for (String app : now.keySet()) {
                portsOf.computeIfAbsent(app, x -> new HashSet<>()).add(a.port());
            }
            touched.addAll(now.keySet());
        }
        for (String app : touched) {
            record(app, bottleneck(app), unixMillis);
        }
        if (history.size() > 2 * portsOf.size() + 64) {
            forgetIdle(unixMillis); // amortised: the applications gone are at most half of those kept
        }
    }

    /** Forgets applications without a weight anywhere for {@link #IDLE_MILLIS}, whether or not they report units. */
    private void forgetIdle(long unixMillis) {
        history.values().removeIf(steps -> Double.isNaN(steps.getLast().share())
                && unixMillis - steps.getLast().unixMillis() > IDLE_MILLIS);
    }

    private void leave(String app, PortId p) {
        Set<PortId> ports = portsOf.get(app);
        if (ports != null) {
            ports.remove(p);
            if (ports.isEmpty()) {
                portsOf.remove(app);
            }
        }
    }

    private static Map<String, Double> sharesOf(PortAllocation a) {
        double sum = 0;
        for (double w : a.appWeights().values()) {
            sum += w;
        }
        Map<String, Double> out = new HashMap<>();
        for (Map.Entry<String, Double> e : a.appWeights().entrySet()) {
            out.put(e.getKey(), sum > 0 ? e.getValue() / sum : Double.NaN);
        }
        return out;
    }

    private double bottleneck(String app) {
        Set<PortId> ports = portsOf.get(app);
        if (ports == null) {
            return Double.NaN;
        }
        double min = Double.NaN;
        for (PortId p : ports) {
            double s = sharesAt.get(p).getOrDefault(app, Double.NaN);
            if (s > 0 && !(s >= min)) {
                min = s;
            }
        }
        return min;
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
     * A reported unit as the estimator sees it: its run time, its network wait (clipped to the run time), the
     * application's mean share while it ran, and its network bytes; null when it has no run time, or when it waited
     * on the network while the application had no weight anywhere (its wait cannot be placed on a curve).
     */
    public Observation observation(String app, WorkSignals s) {
        if (s.runMillis() <= 0) {
            return null;
        }
        long wait = Math.max(0, Math.min(s.networkWaitMillis(), s.runMillis()));
        long bytes = 0;
        for (String kind : NETWORK_BYTES) {
            bytes += Math.max(0, s.bytes(kind));
        }
        if (wait == 0) {
            return new Observation(s.runMillis(), 0, 1.0, bytes); // the share does not matter to a unit that never waited
        }
        double share = meanShare(app, s.endUnixMillis() - Math.max(0, s.durationMillis()), s.endUnixMillis());
        return share > 0 ? new Observation(s.runMillis(), wait, Math.min(1, share), bytes) : null;
    }

    /** Forgets the applications {@code keep} refuses (gone for good). */
    public synchronized void retain(Predicate<String> keep) {
        history.keySet().removeIf(keep.negate());
    }

    /** Applications with a share history. */
    public synchronized int size() {
        return history.size();
    }
}
