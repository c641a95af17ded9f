package io.saba.rperf.switchmodel;

/**
 * The events an {@link EventQueue} holds for one fixed delay after their scheduling, in the order they were scheduled,
 * which is also their (time, sequence) order since the clock never goes back: a ring of (time, sequence, slot).
 */
final class EventLane {
    final long delay;
    final int bit;
    long[] time = new long[64];
    long[] seq = new long[64];
    int[] slot = new int[64];
    int head;
    int count;

    EventLane(long delay, int index) {
        this.delay = delay;
        this.bit = 1 << index;
    }

    void add(long t, long s, int sl) {
        if (count == time.length) {
            grow();
        }
        int tail = (head + count++) & (time.length - 1);
        time[tail] = t;
        seq[tail] = s;
        slot[tail] = sl;
    }

    int poll() {
        int sl = slot[head];
        head = (head + 1) & (time.length - 1);
        count--;
        return sl;
    }

    private void grow() {
        int n = time.length;
        long[] t2 = new long[2 * n];
        long[] s2 = new long[2 * n];
        int[] sl2 = new int[2 * n];
        for (int k = 0; k < count; k++) {
            int i = (head + k) & (n - 1);
            t2[k] = time[i];
            s2[k] = seq[i];
            sl2[k] = slot[i];
        }
        time = t2;
        seq = s2;
        slot = sl2;
        head = 0;
    }
}
