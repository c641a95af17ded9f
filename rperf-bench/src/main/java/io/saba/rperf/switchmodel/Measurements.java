package io.saba.rperf.switchmodel;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What a run measured inside the window [warm-up end, run end]: round trips per latency flow (an
 * HdrHistogram in picoseconds) and payload bytes delivered per flow.
 */
public final class Measurements {
    private final long windowStart;
    private final Map<Integer, Histogram> rtts = new TreeMap<>();
    private final Map<Integer, Long> deliveredBytes = new TreeMap<>();
    private final Map<Integer, Long> deliveredPackets = new TreeMap<>();

    Measurements(long windowStart) {
        this.windowStart = windowStart;
    }

    void delivered(Packet p, long now) {
        if (now >= windowStart) {
            deliveredBytes.merge(p.flow, (long) p.payloadBytes, Long::sum);
            deliveredPackets.merge(p.flow, 1L, Long::sum);
        }
    }

    void roundTrip(int flow, long postedAt, long now) {
        if (postedAt >= windowStart) {
            rtts.computeIfAbsent(flow, f -> new Histogram(3_600_000_000_000L, 3)).recordValue(now - postedAt);
        }
    }

    /** Round trips of {@code flow} in picoseconds, or an empty histogram. */
    public Histogram rtt(int flow) {
        return rtts.getOrDefault(flow, new Histogram(3));
    }

    public long deliveredBytes(int flow) {
        return deliveredBytes.getOrDefault(flow, 0L);
    }

    public long deliveredPackets(int flow) {
        return deliveredPackets.getOrDefault(flow, 0L);
    }

    long windowStart() {
        return windowStart;
    }
}
