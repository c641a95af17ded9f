package io.saba.rperf.switchmodel;

import java.util.Arrays;

/**
 * The simulation clock and its pending events, ordered by (time, insertion sequence) so that events scheduled for
 * the same picosecond run in the order they were scheduled: runs are deterministic.
 *
 * <p>The engine schedules millions of events a second, so the queue is a binary heap over primitive arrays (time,
 * sequence, and the slot holding the event), and the engine's own events are typed (an output port and what to do
 * there) instead of a lambda each: no object is allocated per event. Any {@link Runnable} can still be scheduled.
 *
 * <p>Most events come a fixed delay after the event that schedules them: a packet's end of sending one serialization
 * time after its start (the same for every full packet), a packet's eligibility one switch latency after its
 * arrival, a credit one credit delay after the packet left. Scheduled at now + d with the same d, such events come
 * in (time, sequence) order, so each such delay has a FIFO lane beside the heap, and the next event is the first of
 * the heap's and the lanes' heads. The order is exactly the heap's alone.
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
    /** Lanes of events a fixed delay after their scheduling; lane 0 has delay 0. */
    private static final int MAX_LANES = 8;
    private final EventLane[] lanes = new EventLane[MAX_LANES];
    private int laneCount;
    private int laned;
    /** Bit l set: lane l holds an event. */
    private int nonEmptyLanes;
    /** Time of the event {@link #select} found. */
    private long firstTime;
    private int slots;
    private long seq;
    private long now;

    public EventQueue() {
        lanes[laneCount++] = new EventLane(0, 0);
    }

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

    /** {@code port} tries to start a packet at {@code at}, a delay after now that recurs (a switch's latency). */
    void kickAfterFixedDelay(long at, OutputPort port) {
        pushLaned(at, KICK, port, null, 0);
    }

    /** {@code port} finished sending {@code p} at {@code at}: it tries to start its next packet, then p arrives. */
    void sent(long at, OutputPort port, Packet p) {
        pushLaned(at, SENT, port, p, 0);
    }

    /** {@code p}, sent by {@code port}, arrives at the other end of the link at {@code at}. */
    void arrive(long at, OutputPort port, Packet p) {
        pushLaned(at, ARRIVE, port, p, 0);
    }

    /** {@code port} gets {@code bytes} of credits back for {@code vl} at {@code at}. */
    void credit(long at, OutputPort port, int vl, int bytes) {
        pushLaned(at, CREDIT, port, null, ((long) vl << 32) | (bytes & 0xffffffffL));
    }

    /** Schedules into the lane of its delay, opening one if there is room, else into the heap. */
    private void pushLaned(long at, byte c, Object t, Object p, long a) {
        long delay = at - now;
        if (delay < 0) {
            throw new IllegalArgumentException("event in the past: " + at + " < " + now);
        }
        EventLane lane = lane(delay);
        if (lane == null && laneCount < MAX_LANES && delay > 0) {
            lane = new EventLane(delay, laneCount);
            lanes[laneCount++] = lane;
        }
        if (lane == null) {
            push(at, c, t, p, a);
        } else {
            lane.add(at, seq++, store(c, t, p, a));
            laned++;
            nonEmptyLanes |= lane.bit;
        }
    }

    private EventLane lane(long delay) {
        for (int l = 0; l < laneCount; l++) {
            if (lanes[l].delay == delay) {
                return lanes[l];
            }
        }
        return null;
    }

    private int store(byte c, Object t, Object p, long a) {
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
        return slot;
    }

    /** Schedules into the heap, or into lane 0 for the current time. */
    private void push(long at, byte c, Object t, Object p, long a) {
        if (at < now) {
            throw new IllegalArgumentException("event in the past: " + at + " < " + now);
        }
        int slot = store(c, t, p, a);
        long s = seq++;
        if (at == now) {
            lanes[0].add(at, s, slot);
            laned++;
            nonEmptyLanes |= 1;
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

    /**
     * Finds the first pending event: returns the lane holding it, or -1 for the heap's top, or -2 if none is left;
     * its time is then in {@link #firstTime}.
     */
    private int select() {
        int best = -2;
        long bt = Long.MAX_VALUE;
        long bs = Long.MAX_VALUE;
        if (size > 0) {
            best = -1;
            bt = heapTime[0];
            bs = heapSeq[0];
        }
        for (int m = nonEmptyLanes; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            EventLane lane = lanes[l];
            long t = lane.time[lane.head];
            if (t < bt || (t == bt && lane.seq[lane.head] < bs)) {
                best = l;
                bt = t;
                bs = lane.seq[lane.head];
            }
        }
        firstTime = bt;
        return best;
    }

    /** Removes the event {@link #select} found, sets the clock to its time and runs it. */
    private void run(int from) {
        int slot;
        now = firstTime;
        if (from >= 0) {
            EventLane lane = lanes[from];
            slot = lane.poll();
            laned--;
            if (lane.count == 0) {
                nonEmptyLanes &= ~lane.bit;
            }
        } else {
            slot = heapSlot[0];
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
        for (int from = select(); from != -2 && firstTime <= end; from = select()) {
            run(from);
        }
        now = Math.max(now, end);
    }

    /** Runs every event, including those the events schedule, until none is left; returns the last one's time. */
    public long runAll() {
        for (int from = select(); from != -2; from = select()) {
            run(from);
        }
        return now;
    }

    /** Number of events still pending (for tests). */
    public int pending() {
        return size + laned;
    }
}
