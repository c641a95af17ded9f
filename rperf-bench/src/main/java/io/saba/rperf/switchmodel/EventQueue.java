package io.saba.rperf.switchmodel;

import java.util.Arrays;

/**
 * The simulation clock and its pending events, ordered by (time, insertion sequence) so that events scheduled for
 * the same picosecond run in the order they were scheduled: runs are deterministic.
 *
 * <p>The engine schedules millions of events a second, so the queue is a binary heap over primitive arrays (time,
 * sequence, and the slot holding the event), and the engine's own events are typed (an output port and what to do
 * there) instead of a lambda each: no object is allocated per event. Any {@link Runnable} can still be scheduled.
 * Events for the current time (credits returned without delay) come after every event pending now, so they wait
 * in a FIFO beside the heap instead of going through it.
 */
public final class EventQueue {
    private static final byte RUN = 0;
    private static final byte KICK = 1;
    private static final byte SENT = 2;
    private static final byte ARRIVE = 3;
    private static final byte CREDIT = 4;

    // The heap: entry i has children 2i + 1 and 2i + 2.
    private long[] heapTime = new long[256];
    private long[] heapSeq = new long[256];
    private int[] heapSlot = new int[256];
    private int size;
    // Event bodies by slot; free slots form a stack.
    private byte[] code = new byte[256];
    private Object[] target = new Object[256];
    private Object[] payload = new Object[256];
    private long[] arg = new long[256];
    private int[] free = new int[256];
    private int freeCount;
    // Events scheduled for the time that was current when they were scheduled, in sequence order: a ring.
    private int[] nowSlot = new int[64];
    private long[] nowSeq = new long[64];
    private int nowHead;
    private int nowCount;
    private int slots;
    private long seq;
    private long now;

    /** Current simulated time in picoseconds. */
    public long now() {
        return now;
    }

    /** Runs {@code action} at absolute time {@code at} (never before now). */
    public void at(long at, Runnable action) {
        push(at, RUN, null, action, 0);
    }

    /** {@code port} tries to start a packet at {@code at}. */
    void kick(long at, OutputPort port) {
        push(at, KICK, port, null, 0);
    }

    /** {@code port} finished sending {@code p} at {@code at}: it tries to start its next packet, then p arrives. */
    void sent(long at, OutputPort port, Packet p) {
        push(at, SENT, port, p, 0);
    }

    /** {@code p}, sent by {@code port}, arrives at the other end of the link at {@code at}. */
    void arrive(long at, OutputPort port, Packet p) {
        push(at, ARRIVE, port, p, 0);
    }

    /** {@code port} gets {@code bytes} of credits back for {@code vl} at {@code at}. */
    void credit(long at, OutputPort port, int vl, int bytes) {
        push(at, CREDIT, port, null, ((long) vl << 32) | (bytes & 0xffffffffL));
    }

    private void push(long at, byte c, Object t, Object p, long a) {
        if (at < now) {
            throw new IllegalArgumentException("event in the past: " + at + " < " + now);
        }
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (slots == code.length) {
                growSlots();
            }
            slot = slots++;
        }
        code[slot] = c;
        target[slot] = t;
        payload[slot] = p;
        arg[slot] = a;
        long s = seq++;
        if (at == now) {
            if (nowCount == nowSlot.length) {
                growNow();
            }
            int tail = (nowHead + nowCount++) & (nowSlot.length - 1);
            nowSlot[tail] = slot;
            nowSeq[tail] = s;
            return;
        }
        if (size == heapTime.length) {
            heapTime = Arrays.copyOf(heapTime, size * 2);
            heapSeq = Arrays.copyOf(heapSeq, size * 2);
            heapSlot = Arrays.copyOf(heapSlot, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            long pt = heapTime[parent];
            if (pt < at || (pt == at && heapSeq[parent] < s)) {
                break;
            }
            heapTime[i] = pt;
            heapSeq[i] = heapSeq[parent];
            heapSlot[i] = heapSlot[parent];
            i = parent;
        }
        heapTime[i] = at;
        heapSeq[i] = s;
        heapSlot[i] = slot;
    }

    private void growSlots() {
        int n = code.length * 2;
        code = Arrays.copyOf(code, n);
        target = Arrays.copyOf(target, n);
        payload = Arrays.copyOf(payload, n);
        arg = Arrays.copyOf(arg, n);
        free = Arrays.copyOf(free, n);
    }

    private void growNow() {
        int n = nowSlot.length;
        int[] slots2 = new int[2 * n];
        long[] seqs2 = new long[2 * n];
        for (int k = 0; k < nowCount; k++) {
            slots2[k] = nowSlot[(nowHead + k) & (n - 1)];
            seqs2[k] = nowSeq[(nowHead + k) & (n - 1)];
        }
        nowSlot = slots2;
        nowSeq = seqs2;
        nowHead = 0;
    }

    /** Removes the earliest event, sets the clock to its time and runs it. */
    private void runFirst() {
        int slot;
        if (nowCount > 0 && (size == 0 || heapTime[0] > now || heapSeq[0] > nowSeq[nowHead])) {
            // Every event in the FIFO is at the current time, after the heap's events at that time.
            slot = nowSlot[nowHead];
            nowHead = (nowHead + 1) & (nowSlot.length - 1);
            nowCount--;
        } else {
            slot = heapSlot[0];
            now = heapTime[0];
            int last = --size;
            if (last > 0) {
                siftDown(heapTime[last], heapSeq[last], heapSlot[last], last);
            }
        }
        byte c = code[slot];
        Object t = target[slot];
        Object p = payload[slot];
        long a = arg[slot];
        target[slot] = null;
        payload[slot] = null;
        free[freeCount++] = slot;
        switch (c) {
            case KICK -> ((OutputPort) t).kick();
            case SENT -> ((OutputPort) t).sent((Packet) p);
            case ARRIVE -> ((OutputPort) t).arrive((Packet) p);
            case CREDIT -> ((OutputPort) t).returnCredits((int) (a >>> 32), (int) a);
            default -> ((Runnable) p).run();
        }
    }

    /** Places (time, seq, slot) from the root down, in a heap of {@code n} entries. */
    private void siftDown(long time, long s, int slot, int n) {
        int i = 0;
        int half = n >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            long ct = heapTime[child];
            long cs = heapSeq[child];
            int right = child + 1;
            if (right < n) {
                long rt = heapTime[right];
                if (rt < ct || (rt == ct && heapSeq[right] < cs)) {
                    child = right;
                    ct = rt;
                    cs = heapSeq[right];
                }
            }
            if (time < ct || (time == ct && s < cs)) {
                break;
            }
            heapTime[i] = ct;
            heapSeq[i] = cs;
            heapSlot[i] = heapSlot[child];
            i = child;
        }
        heapTime[i] = time;
        heapSeq[i] = s;
        heapSlot[i] = slot;
    }

    /** Runs every event with time {@code <= end}, then leaves the clock at {@code end}. */
    public void runUntil(long end) {
        while ((nowCount > 0 && now <= end) || (size > 0 && heapTime[0] <= end)) {
            runFirst();
        }
        now = Math.max(now, end);
    }

    /** Runs every event, including those the events schedule, until none is left; returns the last one's time. */
    public long runAll() {
        while (size > 0 || nowCount > 0) {
            runFirst();
        }
        return now;
    }

    /** Number of events still pending (for tests). */
    public int pending() {
        return size + nowCount;
    }
}
