package io.saba.rperf.switchmodel;

import java.util.Arrays;

/**
 * A set of queue indices, as bits: the queues an output port looks at. {@link java.util.BitSet} does the same with
 * more checks per call; the ports change and scan these sets for every packet.
 */
final class QueueSet {
    private long[] words = new long[2];
    /** Number of bits set, so that emptiness costs nothing. */
    private int count;

    void set(int i) {
        int w = i >>> 6;
        if (w >= words.length) {
            words = Arrays.copyOf(words, Math.max(w + 1, 2 * words.length));
        }
        long bit = 1L << i;
        if ((words[w] & bit) == 0) {
            words[w] |= bit;
            count++;
        }
    }

    void clear(int i) {
        int w = i >>> 6;
        if (w < words.length) {
            long bit = 1L << i;
            if ((words[w] & bit) != 0) {
                words[w] &= ~bit;
                count--;
            }
        }
    }

    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** The first index ≥ {@code from} in the set, or -1. */
    int nextSetBit(int from) {
        int w = from >>> 6;
        if (w >= words.length) {
            return -1;
        }
        long word = words[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(word);
            }
            if (++w == words.length) {
                return -1;
            }
            word = words[w];
        }
    }
}
