package io.saba.controller.estimate;

import io.saba.core.alloc.PortId;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The bytes Saba's queues sent, sampled from the fabric about once a second per port in use
 * ({@link io.saba.controller.fabric.FabricBackend#queueBytes}), so that a unit's bytes on a link can be read where
 * its application is alone in its queue: the engine's metrics miss bytes (Spark's broadcasts, cached blocks read
 * from another executor, every header), and the online estimate then reads a workload as less sensitive than it is.
 *
 * <p>Kept per port for {@link #HISTORY_MILLIS}; a queue's bytes over an interval are interpolated linearly between
 * the samples around its ends. A counter that went down (the queue's class was deleted and created again) makes
 * the interval unknown, as does an interval the samples do not cover. A backend that counts nothing costs one call
 * per port and pass.
 */
public final class QueueCounters implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QueueCounters.class);
    /** How often every port in use is read (ms). */
    static final long SAMPLE_MILLIS = 1000;
    /** How long samples are kept: a unit longer than this is not counted. */
    static final long HISTORY_MILLIS = 10 * 60_000;
    /** How far an interval's end may lie beyond the samples (a unit reported just before the next pass). */
    static final long GRACE_MILLIS = 2 * SAMPLE_MILLIS;

    private record Sample(long unixMillis, Map<Integer, Long> bytes) {
    }

    private final Map<PortId, ArrayDeque<Sample>> ports = new HashMap<>();
    private ScheduledExecutorService sampler;
    private boolean warned;

    /** Records one reading of a port's queues at {@code unixMillis} (an empty reading is not kept). */
    public synchronized void sample(PortId port, long unixMillis, Map<Integer, Long> bytesOfQueue) {
        if (bytesOfQueue.isEmpty()) {
            return;
        }
        ArrayDeque<Sample> s = ports.computeIfAbsent(port, p -> new ArrayDeque<>());
        if (!s.isEmpty() && s.peekLast().unixMillis() >= unixMillis) {
            return; // a clock step back: the history stays ordered
        }
        s.addLast(new Sample(unixMillis, Map.copyOf(bytesOfQueue)));
        while (s.peekFirst().unixMillis() < unixMillis - HISTORY_MILLIS) {
            s.removeFirst();
        }
    }

    /** Forgets the ports not in {@code inUse}. */
    public synchronized void retain(Collection<PortId> inUse) {
        ports.keySet().retainAll(inUse);
    }

    /**
     * The bytes {@code queue} of {@code port} sent over [from, to] (wall clock, ms); -1 when the samples do not tell
     * (not covered, or the counter restarted meanwhile).
     */
    public synchronized long sent(PortId port, int queue, long from, long to) {
        ArrayDeque<Sample> s = ports.get(port);
        if (s == null || s.size() < 2 || to < from || from < s.peekFirst().unixMillis()
                || to > s.peekLast().unixMillis() + GRACE_MILLIS) {
            return -1;
        }
        double atFrom = Double.NaN;
        double atTo = Double.NaN;
        Sample before = null;
        Iterator<Sample> it = s.iterator();
        while (it.hasNext()) {
            Sample next = it.next();
            Long b = next.bytes().get(queue);
            if (b == null) {
                if (before != null && before.unixMillis() >= from) {
                    return -1; // the queue went away within the interval
                }
                before = null;
                continue;
            }
            if (before != null) {
                long a = before.bytes().get(queue);
                if (b < a && next.unixMillis() > from && before.unixMillis() < to) {
                    return -1; // restarted within the interval
                }
                if (Double.isNaN(atFrom) && next.unixMillis() >= from) {
                    atFrom = interpolate(before, a, next, b, from);
                }
                if (next.unixMillis() >= to) {
                    atTo = interpolate(before, a, next, b, to);
                    break;
                }
            }
            before = next;
        }
        if (Double.isNaN(atTo) && before != null && !Double.isNaN(atFrom)) {
            atTo = before.bytes().get(queue); // the end lies within the grace after the last sample
        }
        return Double.isNaN(atFrom) || Double.isNaN(atTo) ? -1 : Math.max(0, Math.round(atTo - atFrom));
    }

    private static double interpolate(Sample a, long bytesA, Sample b, long bytesB, long t) {
        long span = b.unixMillis() - a.unixMillis();
        double f = span <= 0 ? 1 : Math.min(1, Math.max(0, (double) (t - a.unixMillis()) / span));
        return bytesA + f * (bytesB - bytesA);
    }

    /**
     * The most any of {@code queues} (port → the application's queue there) sent over [from, to]: the
     * application's busiest link as the fabric counted it; -1 when none is known.
     */
    public long busiest(Map<PortId, Integer> queues, long from, long to) {
        long most = -1;
        for (Map.Entry<PortId, Integer> e : queues.entrySet()) {
            most = Math.max(most, sent(e.getKey(), e.getValue(), from, to));
        }
        return most;
    }

    /**
     * Reads {@code read} for every port {@code inUse} gives, every {@link #SAMPLE_MILLIS} ms on a thread of its own
     * (with a fixed delay: a slow pass makes the samples sparser, it does not pile up).
     */
    public synchronized void start(Supplier<Collection<PortId>> inUse, Function<PortId, Map<Integer, Long>> read) {
        if (sampler != null) {
            return;
        }
        sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "saba-counters");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleWithFixedDelay(() -> pass(inUse, read), SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void pass(Supplier<Collection<PortId>> inUse, Function<PortId, Map<Integer, Long>> read) {
        try {
            Collection<PortId> now = inUse.get();
            for (PortId p : now) {
                long before = System.currentTimeMillis();
                Map<Integer, Long> bytes = read.apply(p);
                sample(p, (before + System.currentTimeMillis()) / 2, bytes);
            }
            retain(now);
        } catch (RuntimeException e) {
            // a backend's failure to read is no reason to stop counting: the next pass tries again; said once, as
            // units then fall back to the bytes their plugins report
            if (!warned) {
                warned = true;
                LOG.warn("Saba: reading the queues' byte counters failed; units use their reported bytes until it "
                        + "works again", e);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
    }
}
