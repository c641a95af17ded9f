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

    /** Picks the VL to serve among {@code ready} (bit v set: VL v is ready), or -1. Call {@link #charge} after sending. */
    int choose(int ready) {
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

    /** {@link #choose(int)} with the ready VLs as flags indexed by VL. */
    int choose(boolean[] ready) {
        int mask = 0;
        for (int vl = 0; vl < ready.length && vl < 32; vl++) {
            if (ready[vl]) {
                mask |= 1 << vl;
            }
        }
        return choose(mask);
    }

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
        private final int[] vls;
        private final int[] weights;
        /** The VLs of the entries with a positive weight, as bits. */
        private final long weighted;
        private int current;
        private long remaining;

        Table(List<VlArbitration.Entry> entries) {
            this.vls = new int[entries.size()];
            this.weights = new int[entries.size()];
            long w = 0;
            for (int i = 0; i < vls.length; i++) {
                vls[i] = entries.get(i).vl();
                weights[i] = entries.get(i).weight();
                if (weights[i] > 0 && vls[i] < 64) {
                    w |= 1L << vls[i];
                }
            }
            this.weighted = w;
            this.current = 0;
            this.remaining = entries.isEmpty() ? 0 : weights[0] * 64L;
        }

        boolean hasReady(int ready) {
            return (weighted & ready) != 0;
        }

        private static boolean isReady(int ready, int vl) {
            return vl < 32 && (ready & (1 << vl)) != 0;
        }

        int choose(int ready) {
            if (remaining > 0 && isReady(ready, vls[current])) {
                return vls[current];
            }
            int n = vls.length;
            for (int step = 1; step <= n; step++) {
                int i = (current + step) % n;
                if (weights[i] > 0 && isReady(ready, vls[i])) {
                    current = i;
                    remaining = weights[i] * 64L;
                    return vls[i];
                }
            }
            return -1;
        }

        void charge(int bytes) {
            remaining -= bytes;
        }
    }
}
