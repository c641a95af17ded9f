package io.saba.rperf.switchmodel;

import java.util.Arrays;

/**
 * A host's queues as its port's round robin sees them, kept so that a try to send costs what changed since the last
 * one instead of a look at every queue pair with data: a host running many jobs has hundreds.
 *
 * <p>A queue pair whose head is out, a full packet and not throttled by congestion control is <em>steady</em>: until
 * it sends that packet or a BECN reaches it, its head is eligible whenever asked and is ready exactly when its VL
 * has credits for a full packet. Steady queue pairs are filed by VL in bit sets, so a try reads one credit count
 * per VL and a round robin pick is a {@link QueueSet#nextSetBit} in the chosen VL. Every other queue with something
 * to send (the ACK queue, a queue pair that needs its next head, has a short last packet or is throttled, and
 * generators other than queue pairs) is asked for its head at every try, in queue order, as before: that is where
 * packets are created and numbered, so they are created at the same tries and in the same order, and the pick is
 * the same queue as a look at every queue would choose.
 */
final class HostQueues {
    private PacketQueue[] queues = new PacketQueue[0];
    /** Queues with something to send, or that may have at any time. */
    private final QueueSet active = new QueueSet();
    /** Active queues that are not steady: their heads are asked for at every try. */
    private final QueueSet asked = new QueueSet();
    /** Steady queue pairs by VL, and the VL each queue is filed under (-1: not steady). */
    private final QueueSet[] steady;
    private int[] steadyVl = new int[0];
    /** Wire bytes of a full data packet: what a steady head is. */
    private final int fullWireBytes;
    /** Scratch for {@link #pick}: the asked queues whose head could start now, in queue order, and their VLs. */
    private int[] readyQueue = new int[16];
    private int[] readyVl = new int[16];
    private int readyCount;
    private long earliest;

    HostQueues(int vls, int fullWireBytes) {
        this.steady = new QueueSet[vls];
        for (int vl = 0; vl < vls; vl++) {
            steady[vl] = new QueueSet();
        }
        this.fullWireBytes = fullWireBytes;
    }

    /** Adds a queue at the next index; {@code hasData}: it has something to send already. */
    int add(PacketQueue q, boolean hasData) {
        int i = queues.length;
        queues = Arrays.copyOf(queues, i + 1);
        queues[i] = q;
        steadyVl = Arrays.copyOf(steadyVl, i + 1);
        steadyVl[i] = -1;
        if (hasData) {
            activate(i);
        }
        return i;
    }

    PacketQueue[] array() {
        return queues;
    }

    QueueSet active() {
        return active;
    }

    /** Queue {@code i} has something to send. */
    void activate(int i) {
        active.set(i);
        if (steadyVl[i] < 0) {
            asked.set(i);
        }
    }

    /** Queue {@code i} sent its head; {@code empty}: it has nothing more to send. */
    void polled(int i, boolean empty) {
        unfile(i);
        if (empty) {
            active.clear(i);
            asked.clear(i);
        } else {
            asked.set(i);
        }
    }

    /** Queue {@code i}'s head may no longer be eligible at every time (a BECN raised its throttle). */
    void unsteady(int i) {
        if (steadyVl[i] >= 0) {
            unfile(i);
            asked.set(i);
        }
    }

    /** The port's SL-to-VL table changed: every steady queue is asked again, and refiled under its new VL. */
    void unsteadyAll() {
        for (int i = 0; i < queues.length; i++) {
            unsteady(i);
        }
    }

    private void unfile(int i) {
        int vl = steadyVl[i];
        if (vl >= 0) {
            steady[vl].clear(i);
            steadyVl[i] = -1;
        }
    }

    /**
     * The queue whose head {@code port} sends now: the first ready one after the VL's round-robin pointer, on the VL
     * its arbitration chooses; or -1 when none is ready (then {@link #earliest} says when one becomes eligible).
     */
    int pick(OutputPort port, long now) {
        int mask = askHeads(port, now);
        for (int vl = 0; vl < steady.length; vl++) {
            QueueSet s = steady[vl];
            if (!s.isEmpty()) {
                if (port.credits(vl) >= fullWireBytes) {
                    mask |= 1 << vl;
                } else {
                    port.creditStalls += s.size();
                }
            }
        }
        if (mask == 0) {
            return -1;
        }
        int vl = port.chooseVl(mask);
        int start = port.roundRobinStart(vl, queues.length);
        int best = Integer.MAX_VALUE;
        int first = Integer.MAX_VALUE;
        for (int v = vl >= 0 ? vl : 0; v <= (vl >= 0 ? vl : steady.length - 1); v++) {
            QueueSet s = steady[v];
            if (!s.isEmpty() && port.credits(v) >= fullWireBytes) {
                int after = s.nextSetBit(start);
                if (after >= 0) {
                    best = Math.min(best, after);
                }
                first = Math.min(first, s.nextSetBit(0));
            }
        }
        for (int r = 0; r < readyCount; r++) {
            if (vl < 0 || readyVl[r] == vl) {
                int q = readyQueue[r];
                if (q >= start) {
                    best = Math.min(best, q);
                }
                first = Math.min(first, q);
            }
        }
        if (first == Integer.MAX_VALUE) {
            throw new IllegalStateException("round-robin found nothing ready on VL " + vl + " at " + port);
        }
        return best != Integer.MAX_VALUE ? best : first;
    }

    /**
     * Asks every non-steady active queue for its head, in queue order: files those that turned steady, lists the
     * others that could start now, and notes when the earliest of the rest becomes eligible. Returns their VLs.
     */
    private int askHeads(OutputPort port, long now) {
        readyCount = 0;
        earliest = Long.MAX_VALUE;
        int mask = 0;
        for (int i = asked.nextSetBit(0); i >= 0; i = asked.nextSetBit(i + 1)) {
            PacketQueue q = queues[i];
            Packet h = q.head(now);
            if (h == null) {
                continue;
            }
            int vl = port.vlOf(h);
            if (h.wireBytes == fullWireBytes && q instanceof QueuePair qp && qp.unthrottled(now)) {
                asked.clear(i);
                steady[vl].set(i);
                steadyVl[i] = vl;
                continue;
            }
            if (h.eligibleAt > now) {
                earliest = Math.min(earliest, h.eligibleAt);
                continue;
            }
            if (port.credits(vl) < h.wireBytes) {
                port.creditStalls++;
                continue;
            }
            if (readyCount == readyQueue.length) {
                readyQueue = Arrays.copyOf(readyQueue, 2 * readyCount);
                readyVl = Arrays.copyOf(readyVl, 2 * readyCount);
            }
            readyQueue[readyCount] = i;
            readyVl[readyCount] = vl;
            readyCount++;
            mask |= 1 << vl;
        }
        return mask;
    }

    /** After {@link #pick} found nothing: when the earliest head becomes eligible (Long.MAX_VALUE: none waits). */
    long earliest() {
        return earliest;
    }
}
