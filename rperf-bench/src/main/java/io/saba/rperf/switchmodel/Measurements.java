package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What a run measured inside the window [warm-up end, run end]: round trips per latency flow (an
 * HdrHistogram in picoseconds), payload bytes delivered and ACKs returned per flow.
 */
public final class Measurements {
    private final long windowStart;
    private final Map<Integer, Histogram> rtts = new TreeMap<>();
    /** Per flow id (flows are numbered from 0). */
    private long[] deliveredBytes = new long[16];
    private long[] deliveredPackets = new long[16];
    private long[] acknowledgements = new long[16];
    private final Map<Integer, List<Histogram>> waits = new TreeMap<>();

    Measurements(long windowStart) {
        this.windowStart = windowStart;
    }

    void delivered(Packet p, long now) {
        if (now >= windowStart) {
            if (p.flow >= deliveredBytes.length) {
                int n = Math.max(p.flow + 1, 2 * deliveredBytes.length);
                deliveredBytes = Arrays.copyOf(deliveredBytes, n);
                deliveredPackets = Arrays.copyOf(deliveredPackets, n);
            }
            deliveredBytes[p.flow] += p.payloadBytes;
            deliveredPackets[p.flow]++;
        }
    }

    /** An ACK for {@code flow}'s data reached its sender. */
    void acknowledged(int flow, long now) {
        if (now >= windowStart) {
            if (flow >= acknowledgements.length) {
                acknowledgements = Arrays.copyOf(acknowledgements, Math.max(flow + 1, 2 * acknowledgements.length));
            }
            acknowledgements[flow]++;
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
        return flow >= 0 && flow < deliveredBytes.length ? deliveredBytes[flow] : 0;
    }

    public long deliveredPackets(int flow) {
        return flow >= 0 && flow < deliveredPackets.length ? deliveredPackets[flow] : 0;
    }

    /** ACKs that reached {@code flow}'s sender: one per data packet, or fewer with ACK coalescing. */
    public long acknowledgements(int flow) {
        return flow >= 0 && flow < acknowledgements.length ? acknowledgements[flow] : 0;
    }

    long windowStart() {
        return windowStart;
    }
}
