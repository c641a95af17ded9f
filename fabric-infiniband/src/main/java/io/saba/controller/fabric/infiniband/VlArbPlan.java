package io.saba.controller.fabric.infiniband;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Queue weights (fractions of a link) turned into a VL arbitration table, and how far the table's shares are from
 * the weights. Pure logic.
 *
 * <p><b>What a table delivers.</b> The port serves the low-priority table's entries round robin; an entry (VL,
 * weight w) lets its VL send packets while fewer than w × 64 bytes went out in this turn, and a packet that starts
 * is finished. With full packets of P × 64 bytes (P = MTU / 64) an entry therefore sends ⌈w / P⌉ packets, not
 * w × 64 bytes. Shares are computed in <em>grains</em>: a grain is P units (P = 1 is the byte-exact fluid model; set
 * P from the MTU for bulk traffic). An entry carries 1 … ⌈255 / P⌉ grains, and a VL's share is its grains over all
 * grains.
 *
 * <p><b>Rounding.</b> For every total T (grains per arbitration round) that fits the table (each VL with a
 * non-zero weight needs ≥ 1 grain; a VL needs ⌈grains / maxPerEntry⌉ entries; entries ≤ the table's capacity),
 * the grains are chosen to minimise the largest share error |grains/T − weight| (bisection on the error, with
 * largest remainder as a second candidate); the T with the smallest error wins (ties: the smaller T, i.e. shorter
 * rounds and less latency for the others). The error is below 1/T; T is at most capacity × ⌈255/P⌉, so an
 * 8-entry table at MTU 2048 (P = 32, 8 grains per entry) has T ≤ 64, a 64-entry table T ≤ 512. Measured on
 * random 8-VL weights (VlArbPlanTest): worst error 0.07 % (8 entries, bytes), 4.6 % (8 entries, MTU 2048),
 * 0.2 % (64 entries, MTU 2048).
 *
 * <p>Nothing goes in the high-priority table: every VL, the non-Saba VL 0 included, is weighted in the low table,
 * so the high-priority limit has no effect (the backend leaves VLHighLimit as it found it and writes the
 * high table empty).
 *
 * @param vlWeights the weight fraction asked for per VL (index = VL)
 * @param grains    grains given to each VL
 * @param entries   the low-priority table, in order (VL, weight 1..255)
 * @param grainUnits P, 64-byte units per grain
 */
public record VlArbPlan(double[] vlWeights, int[] grains, List<Entry> entries, int grainUnits) {
    /** Most weight one table entry holds (in 64-byte units). */
    public static final int MAX_ENTRY_WEIGHT = 255;

    /** One table entry. */
    public record Entry(int vl, int weight) {
    }

    public VlArbPlan {
        vlWeights = vlWeights.clone();
        grains = grains.clone();
        entries = List.copyOf(entries);
    }

    /**
     * @param weights    weight per VL (index = VL), ≥ 0, summing to 1 (± 1e-6; normalised)
     * @param capacity   the port's low-priority table capacity (VLArbitrationLowCap, 1..64)
     * @param grainUnits P: 64-byte units per grain (1 = fluid model; MTU/64 for full packets)
     */
    public static VlArbPlan of(double[] weights, int capacity, int grainUnits) {
        if (capacity < 1 || capacity > 64) {
            throw new IllegalArgumentException("VL arbitration capacity must be 1..64, got " + capacity);
        }
        if (grainUnits < 1 || grainUnits > MAX_ENTRY_WEIGHT) {
            throw new IllegalArgumentException("grain must be 1..255 units of 64 bytes, got " + grainUnits);
        }
        double sum = 0;
        int nonZero = 0;
        for (int vl = 0; vl < weights.length; vl++) {
            if (!(weights[vl] >= 0) || Double.isInfinite(weights[vl])) {
                throw new IllegalArgumentException("weight of VL " + vl + " is " + weights[vl]);
            }
            sum += weights[vl];
            nonZero += weights[vl] > 0 ? 1 : 0;
        }
        if (nonZero == 0) {
            throw new IllegalArgumentException("all VL weights are zero");
        }
        if (nonZero > capacity) {
            throw new IllegalArgumentException(nonZero + " VLs carry weight but the table has only " + capacity
                    + " entries");
        }
        double[] w = new double[weights.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = weights[i] / sum;
        }
        int perEntry = (MAX_ENTRY_WEIGHT + grainUnits - 1) / grainUnits;
        int[] best = null;
        double bestErr = Double.POSITIVE_INFINITY;
        for (int total = nonZero; total <= capacity * perEntry && bestErr > 1e-12; total++) {
            if (lowerBound(w, total) >= bestErr - 1e-12) {
                continue; // no vector at this total can beat the best so far
            }
            for (int[] g : new int[][] {minimax(w, total, perEntry, capacity), apportion(w, total)}) {
                if (g == null || entriesNeeded(g, perEntry) > capacity) {
                    continue;
                }
                double err = maxError(w, g);
                if (err < bestErr - 1e-12) {
                    bestErr = err;
                    best = g;
                }
            }
        }
        return new VlArbPlan(w, best, layout(best, perEntry, grainUnits), grainUnits);
    }

    /**
     * The grains with the smallest largest error at this total: bisection on the error e, where e is feasible when
     * every VL can take a whole number of grains within T·(w ± e) (at least 1) that sum to T and fit the table's
     * entries. Null if no e does.
     */
    static int[] minimax(double[] w, int total, int perEntry, int capacity) {
        if (fill(w, total, 1, perEntry, capacity) == null) {
            return null;
        }
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 30; it++) {
            double mid = (lo + hi) / 2;
            if (fill(w, total, mid, perEntry, capacity) != null) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return fill(w, total, hi, perEntry, capacity);
    }

    /**
     * A grain vector within error e of the weights that sums to the total with the fewest entries: start from the
     * lower ends, use the room left in entries already open, then open entries where the most room is.
     */
    private static int[] fill(double[] w, int total, double e, int perEntry, int capacity) {
        int[][] r = ranges(w, total, e);
        if (r == null) {
            return null;
        }
        int[] g = r[0].clone();
        int[] high = r[1];
        int used = Arrays.stream(g).sum();
        int entries = entriesNeeded(g, perEntry);
        if (entries > capacity) {
            return null;
        }
        for (int i = 0; i < g.length && used < total; i++) {
            int open = (g[i] + perEntry - 1) / perEntry * perEntry;
            int add = Math.min(Math.min(high[i], open) - g[i], total - used);
            if (add > 0) {
                g[i] += add;
                used += add;
            }
        }
        while (used < total) {
            int pick = -1;
            for (int i = 0; i < g.length; i++) {
                if (high[i] > g[i] && (pick < 0 || high[i] - g[i] > high[pick] - g[pick])) {
                    pick = i;
                }
            }
            if (pick < 0 || ++entries > capacity) {
                return null;
            }
            int add = Math.min(Math.min(perEntry, high[pick] - g[pick]), total - used);
            g[pick] += add;
            used += add;
        }
        return g;
    }

    /** Per-VL [low, high] grain counts within error e, or null if they cannot sum to the total. */
    private static int[][] ranges(double[] w, int total, double e) {
        int[] low = new int[w.length];
        int[] high = new int[w.length];
        long sumLow = 0;
        long sumHigh = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0) {
                low[i] = Math.max(1, (int) Math.ceil((w[i] - e) * total - 1e-9));
                high[i] = (int) Math.floor((w[i] + e) * total + 1e-9);
                if (low[i] > high[i]) {
                    return null;
                }
            }
            sumLow += low[i];
            sumHigh += high[i];
        }
        return sumLow <= total && total <= sumHigh ? new int[][] {low, high} : null;
    }

    /** Every VL's share moves in steps of 1/T: its error is at least the distance of w·T to a whole number. */
    private static double lowerBound(double[] w, int total) {
        double lb = 0;
        for (double x : w) {
            if (x > 0) {
                double t = x * total;
                lb = Math.max(lb, t < 1 ? (1 - t) : Math.abs(t - Math.rint(t)));
            }
        }
        return lb / total;
    }

    /** Largest remainder with a floor of 1 grain for every non-zero weight; null if the floors exceed the total. */
    static int[] apportion(double[] w, int total) {
        int[] g = new int[w.length];
        double[] rem = new double[w.length];
        int used = 0;
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0) {
                double exact = w[i] * total;
                g[i] = Math.max(1, (int) Math.floor(exact));
                rem[i] = exact - g[i];
                used += g[i];
            }
        }
        if (used > total) {
            return null;
        }
        while (used < total) {
            int pick = -1;
            for (int i = 0; i < w.length; i++) {
                if (w[i] > 0 && (pick < 0 || rem[i] > rem[pick])) {
                    pick = i;
                }
            }
            g[pick]++;
            rem[pick] -= 1;
            used++;
        }
        return g;
    }

    private static int entriesNeeded(int[] g, int perEntry) {
        int n = 0;
        for (int x : g) {
            n += (x + perEntry - 1) / perEntry;
        }
        return n;
    }

    private static double maxError(double[] w, int[] g) {
        double total = Arrays.stream(g).sum();
        double err = 0;
        for (int i = 0; i < w.length; i++) {
            err = Math.max(err, Math.abs(g[i] / total - w[i]));
        }
        return err;
    }

    /** Entries interleaved round robin across VLs (no VL waits behind all of another's entries). */
    private static List<Entry> layout(int[] grains, int perEntry, int grainUnits) {
        int[] left = grains.clone();
        List<Entry> out = new ArrayList<>();
        boolean any = true;
        while (any) {
            any = false;
            for (int vl = 0; vl < left.length; vl++) {
                if (left[vl] > 0) {
                    int take = Math.min(perEntry, left[vl]);
                    left[vl] -= take;
                    out.add(new Entry(vl, Math.min(MAX_ENTRY_WEIGHT, take * grainUnits)));
                    any = true;
                }
            }
        }
        return out;
    }

    /** The share each VL gets when all are busy, under this plan's packet model. */
    public double[] deliveredShares() {
        double total = Arrays.stream(grains).sum();
        double[] s = new double[grains.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = grains[i] / total;
        }
        return s;
    }

    /** Largest |delivered − asked| over VLs, as a fraction of the link. */
    public double maxShareError() {
        return maxError(vlWeights, grains);
    }

    /**
     * The table as SMP payloads: blocks of 32 entries (2 bytes each: VL in the low nibble of the first, weight in
     * the second), {@code blocks} of them; unused entries are (VL 0, weight 0), which the port skips.
     */
    public byte[][] lowBlocks(int blocks) {
        return encode(entries, blocks);
    }

    static byte[][] encode(List<Entry> entries, int blocks) {
        byte[][] out = new byte[blocks][Smp.DATA_BYTES];
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            out[i / 32][2 * (i % 32)] = (byte) (e.vl() & 0x0f);
            out[i / 32][2 * (i % 32) + 1] = (byte) e.weight();
        }
        return out;
    }

    /** The inverse of {@link #encode}: the (VL, weight) pairs of the first {@code capacity} entries. */
    public static List<Entry> decode(byte[][] blocks, int capacity) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < capacity; i++) {
            byte[] b = blocks[i / 32];
            out.add(new Entry(b[2 * (i % 32)] & 0x0f, b[2 * (i % 32) + 1] & 0xff));
        }
        return out;
    }
}
