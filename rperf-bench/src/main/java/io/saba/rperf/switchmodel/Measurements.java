package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;
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
    private final Map<Integer, List<Histogram>> waits = new TreeMap<>();

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

    /** A latency packet's waits at the switches it crossed on the way to its destination (see {@link Packet}). */
    void switchWaits(int flow, long postedAt, long[] waitsPs, int switches) {
        if (postedAt < windowStart) {
            return;
        }
        List<Histogram> perSwitch = waits.computeIfAbsent(flow, f -> new ArrayList<>());
        for (int i = 0; i < switches; i++) {
            if (perSwitch.size() == i) {
                perSwitch.add(new Histogram(3_600_000_000_000L, 3));
            }
            perSwitch.get(i).recordValue(waitsPs[i]);
        }
    }

    /**
     * How long {@code flow}'s packets waited at each switch on their way (in path order), picoseconds: one histogram per
     * switch; empty for a flow that is not a latency generator's.
     */
    public List<Histogram> switchWaits(int flow) {
        return waits.getOrDefault(flow, List.of());
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
