package io.saba.rperf.switchmodel;

import java.util.List;

/**
 * The per-output-port state machine of {@link VlArbitration}: which table entry is current, how much of
 * its weight is left, and how many high-priority bytes have gone since low priority last had a turn.
 *
 * <p>Semantics (IB spec vol. 1 §7.6.9, simplified): a table's current entry keeps serving its VL while
 * that VL has a packet ready and the entry's remaining weight is positive; a packet may overrun the
 * remaining weight. When the entry's weight is used up or its VL has nothing ready, the next entry with a
 * ready VL becomes current with its full weight. High priority wins while it has a ready VL, unless it
 * has sent at least the limit (4 KiB units) since the last low-priority packet and low priority has a
 * ready VL.
 */
final class VlArbiter {
    private final VlArbitration config;
    private final Table high;
    private final Table low;
    private long highBytesSinceLow;

    VlArbiter(VlArbitration config) {
        this.config = config;
        this.high = new Table(config.high());
        this.low = new Table(config.low());
    }

    /** Picks the VL to serve among {@code ready} (indexed by VL), or -1. Call {@link #charge} after sending. */
    int choose(boolean[] ready) {
        boolean highReady = high.hasReady(ready);
        boolean lowReady = low.hasReady(ready);
        if (highReady && (!lowReady || highAllowed())) {
            lastFromHigh = true;
            return high.choose(ready);
        }
        if (lowReady) {
            lastFromHigh = false;
            return low.choose(ready);
        }
        return -1;
    }

    private boolean lastFromHigh;

    /** Records that a packet of {@code bytes} left on the VL last returned by {@link #choose}. */
    void charge(int bytes) {
        if (lastFromHigh) {
            high.charge(bytes);
            highBytesSinceLow += bytes;
        } else {
            low.charge(bytes);
            highBytesSinceLow = 0;
        }
    }

    private boolean highAllowed() {
        int limit = config.highLimit();
        return limit == VlArbitration.UNLIMITED || highBytesSinceLow == 0 || highBytesSinceLow < limit * 4096L;
    }

    /** One weighted round-robin table. */
    private static final class Table {
        private final List<VlArbitration.Entry> entries;
        private int current;
        private long remaining;

        Table(List<VlArbitration.Entry> entries) {
            this.entries = entries;
            this.current = 0;
            this.remaining = entries.isEmpty() ? 0 : entries.get(0).weight() * 64L;
        }

        boolean hasReady(boolean[] ready) {
            for (VlArbitration.Entry e : entries) {
                if (e.weight() > 0 && e.vl() < ready.length && ready[e.vl()]) {
                    return true;
                }
            }
            return false;
        }

        int choose(boolean[] ready) {
            VlArbitration.Entry cur = entries.get(current);
            if (remaining > 0 && cur.vl() < ready.length && ready[cur.vl()]) {
                return cur.vl();
            }
            for (int step = 1; step <= entries.size(); step++) {
                int i = (current + step) % entries.size();
                VlArbitration.Entry e = entries.get(i);
                if (e.weight() > 0 && e.vl() < ready.length && ready[e.vl()]) {
                    current = i;
                    remaining = e.weight() * 64L;
                    return e.vl();
                }
            }
            return -1;
        }

        void charge(int bytes) {
            remaining -= bytes;
        }
    }
}
