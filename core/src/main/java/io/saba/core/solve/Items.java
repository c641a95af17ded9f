package io.saba.core.solve;

/**
 * The units the Eq. 2 branch and bound works on, as parallel arrays rather than an object each (a port is solved
 * every few microseconds, and almost always without branching): item i is {@code counts[i]} interchangeable
 * applications of input group {@link #groupOf}(i), each confined to the interval of its envelope. At the root item
 * i is group i; a branch splits one application off an item into an item of its own on part of the interval.
 */
final class Items {
    final ConvexEnvelope[] envelopes;
    final int[] counts;
    /** Each item's input group; null at the root, where item i is group i. */
    private final int[] groups;

    private Items(ConvexEnvelope[] envelopes, int[] counts, int[] groups) {
        this.envelopes = envelopes;
        this.counts = counts;
        this.groups = groups;
    }

    /** Group g is item g (the arrays are kept, not copied: neither side may change them). */
    static Items root(ConvexEnvelope[] envelopes, int[] counts) {
        return new Items(envelopes, counts, null);
    }

    int size() {
        return counts.length;
    }

    int groupOf(int i) {
        return groups == null ? i : groups[i];
    }

    /** True while no application has been split off: item i is group i. */
    boolean isRoot() {
        return groups == null;
    }

    /**
     * Splits one application off item {@code k}: it gets [lo, at] in the first child and [at, hi] in the second,
     * on an envelope of its own (tighter than the item's), and goes last; the item keeps the other applications.
     */
    Items[] split(int k, double at) {
        ConvexEnvelope e = envelopes[k];
        return new Items[] {without(k, new ConvexEnvelope(e.model, e.lo, at)),
                without(k, new ConvexEnvelope(e.model, at, e.hi))};
    }

    private Items without(int k, ConvexEnvelope single) {
        boolean keep = counts[k] > 1;
        int size = size() + (keep ? 1 : 0);
        ConvexEnvelope[] e = new ConvexEnvelope[size];
        int[] c = new int[size];
        int[] g = new int[size];
        int at = 0;
        for (int i = 0; i < size(); i++) {
            if (i != k || keep) {
                e[at] = envelopes[i];
                c[at] = i == k ? counts[i] - 1 : counts[i];
                g[at++] = groupOf(i);
            }
        }
        e[at] = single;
        c[at] = 1;
        g[at] = groupOf(k);
        return new Items(e, c, g);
    }
}
