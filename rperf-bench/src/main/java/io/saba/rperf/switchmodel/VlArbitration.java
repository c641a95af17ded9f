package io.saba.rperf.switchmodel;

import java.util.List;

/**
 * InfiniBand VL arbitration configuration: a high- and a low-priority table of (VL, weight) entries,
 * weights in 64-byte units (0-255), and the limit of high priority in 4 KiB units (255 = unlimited,
 * 0 = one packet before low priority gets a turn).
 */
public record VlArbitration(List<Entry> high, List<Entry> low, int highLimit) {
    /** One table entry. */
    public record Entry(int vl, int weight) {
        public Entry {
            if (weight < 0 || weight > 255) {
                throw new IllegalArgumentException("VLArb weight must be 0-255, got " + weight);
            }
        }
    }

    public static final int UNLIMITED = 255;

    public VlArbitration {
        high = List.copyOf(high);
        low = List.copyOf(low);
        if (highLimit < 0 || highLimit > 255) {
            throw new IllegalArgumentException("high limit must be 0-255, got " + highLimit);
        }
    }

    /** The paper's dedicated-SL setup: VL1 high priority, VL0 low priority. */
    public static VlArbitration latencyVlHigh(int highLimit) {
        return new VlArbitration(List.of(new Entry(1, 255)), List.of(new Entry(0, 255)), highLimit);
    }

    /** The highest VL index any table mentions, for sizing per-VL state. */
    int maxVl() {
        int m = 0;
        for (Entry e : high) {
            m = Math.max(m, e.vl);
        }
        for (Entry e : low) {
            m = Math.max(m, e.vl);
        }
        return m;
    }
}
