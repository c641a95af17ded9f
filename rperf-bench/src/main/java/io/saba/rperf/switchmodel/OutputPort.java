package io.saba.rperf.switchmodel;

import java.util.Arrays;

/**
 * An output port and the link behind it: arbitrates among the queues of its node whose head packet is routed
 * here, holds the credits the downstream buffer advertised (per VL), and serializes one packet at a time. A packet
 * starts only when it is eligible and the downstream VL has room for all of it.
 *
 * <p>Each port has its own SL-to-VL table and VL arbitration (IB keeps them per port; a controller such as Saba's
 * writes them port by port). A packet's VL on the link behind this port is the table's VL for its SL: credits,
 * the VL arbitration and the downstream input buffer all use that VL.
 */
public final class OutputPort {
    private final Node node;
    final int index;
    private final ModelParams params;
    private final EventQueue clock;
    private final Policy policy;
    private VlArbiter vlArbiter;
    private final int vls;
    private int[] sl2vl;
    private Receiver downstream;
    private int downstreamPort;
    private long[] credits;
    private long busyUntil;
    private long wakeAt = Long.MAX_VALUE;
    private final int[] rrPointer;
    /** Bytes sent per VL, for tests and utilisation. */
    final long[] sentBytes;
    /** Times a ready packet could not start for lack of credits (a credit stall), for tests. */
    long creditStalls;
    /** Scratch for {@link #kick}: the queues whose head could start now, in queue order, their VLs and heads. */
    private int[] readyQueue = new int[16];
    private int[] readyVl = new int[16];
    private Packet[] readyHead = new Packet[16];
    private int readyCount;
    private int vlMask;
    /** The node when it is a switch (its queues are input buffers and heads are routed), else null. */
    private final SwitchNode switchNode;
    /** The host's queues when the node is a host, else null. */
    private final HostQueues hostQueues;
    /** Serialization time by wire size, filled as sizes are seen. */
    private final long[] serialization;

    OutputPort(Node node, int index, ModelParams params, EventQueue clock, Policy policy, VlArbitration vlArb,
               int vls) {
        this.node = node;
        this.switchNode = node instanceof SwitchNode s ? s : null;
        this.hostQueues = node instanceof HostNode h ? h.hostQueues() : null;
        this.index = index;
        this.params = params;
        this.clock = clock;
        this.policy = policy;
        this.vlArbiter = vlArb == null ? null : new VlArbiter(vlArb);
        this.vls = vls;
        this.sl2vl = node.defaultSl2Vl();
        this.rrPointer = new int[vls];
        Arrays.fill(rrPointer, -1);
        this.sentBytes = new long[vls];
        this.serialization = new long[params.dataWireBytes(params.mtuBytes()) + 1];
    }

    void connect(Receiver receiver, int port) {
        this.downstream = receiver;
        this.downstreamPort = port;
        this.credits = new long[vls];
        for (int vl = 0; vl < vls; vl++) {
            credits[vl] = receiver.creditsFor(port, vl);
        }
        receiver.connectUpstream(port, this);
    }

    /**
     * Sets this port's SL-to-VL table and VL arbitration (null: no VL arbitration, heads of every VL compete
     * under the node's policy). Takes effect for the next packet this port starts.
     */
    void configure(int[] slToVl, VlArbitration vlArb) {
        for (int vl : slToVl) {
            if (vl < 0 || vl >= vls) {
                throw new IllegalArgumentException(this + ": SL2VL maps to VL " + vl + " but the port has " + vls
                        + " VLs");
            }
        }
        this.sl2vl = slToVl.clone();
        this.vlArbiter = vlArb == null ? null : new VlArbiter(vlArb);
    }

    /** The downstream buffer of {@code vl} was resized before any traffic: its credits are its new size. */
    void resetCredits(int vl, long bytes) {
        credits[vl] = bytes;
    }

    void returnCredits(int vl, int bytes) {
        addCredits(vl, bytes);
        kick();
    }

    /** Credits back without a try to send: for a port that is sending until after they arrive. */
    void addCredits(int vl, int bytes) {
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] += bytes;
        }
    }

    long credits(int vl) {
        return credits[vl];
    }

    /** The VL a packet of service level {@code sl} uses on this port's link. */
    int vlOf(Packet p) {
        return sl2vl[p.sl];
    }

    /** Tries to start a packet now; if none can start yet, arranges to try again when one could. */
    void kick() {
        long now = clock.now();
        if (busyUntil > now || downstream == null) {
            return;
        }
        if (hostQueues != null) {
            kickHost(now);
            return;
        }
        QueueSet contenders = switchNode.contenders(this);
        if (contenders.isEmpty()) {
            return; // nothing to send and nothing to wait for
        }
        // A switch: input buffers, each head routed to one of its ports.
        readyCount = 0;
        vlMask = 0;
        long earliest = Long.MAX_VALUE;
        InputBuffer[] buffers = switchNode.bufferArray();
        for (int i = contenders.nextSetBit(0); i >= 0; i = contenders.nextSetBit(i + 1)) {
            Packet h = buffers[i].head();
            if (h != null && switchNode.routePort(h) == index) {
                earliest = consider(i, h, now, earliest);
            }
        }
        int readyCount = this.readyCount;
        if (readyCount == 0) {
            scheduleWake(earliest);
            return;
        }
        int vl = chooseVl(vlMask);
        int r = policy == Policy.FCFS ? pickFirstCome(readyCount, vl) : pickRoundRobin(readyCount, vl, buffers.length);
        int chosen = readyQueue[r];
        start(chosen, buffers[chosen].poll(now), now);
    }

    /** A host's port: its queues keep what a pick needs ({@link HostQueues}); hosts serve them round robin. */
    private void kickHost(long now) {
        if (hostQueues.active().isEmpty()) {
            return;
        }
        int chosen = hostQueues.pick(this, now);
        if (chosen < 0) {
            scheduleWake(hostQueues.earliest());
            return;
        }
        start(chosen, hostQueues.array()[chosen].poll(now), now);
    }

    /** Starts {@code p}, just taken from queue {@code chosen}, then lets the node's other ports try. */
    private void start(int chosen, Packet p, long now) {
        node.polled(chosen, this);
        int pvl = sl2vl[p.sl];
        node.departing(p, this, pvl);
        if (vlArbiter != null) {
            vlArbiter.charge(p.wireBytes);
        }
        rrPointer[vlArbiter != null ? pvl : 0] = chosen;
        transmit(p, pvl, now);
        // The queue's new head may want another port of this node.
        node.kickAll(now);
    }

    /** The VL the arbitration serves among the ready ones ({@code mask}: bit v set, VL v ready), or -1: any. */
    int chooseVl(int mask) {
        return vlArbiter != null ? vlArbiter.choose(mask) : -1;
    }

    /** Where round robin looks first on {@code vl} (-1: any) among {@code queues} queues: after the last served. */
    int roundRobinStart(int vl, int queues) {
        int start = rrPointer[vl >= 0 ? vl : 0] + 1; // the pointer is -1 (none yet) or a queue index
        return start >= queues ? 0 : start;
    }

    /**
     * Adds queue {@code i}'s head {@code h} to the ready list if it may start now; returns the earliest time one of
     * the heads seen so far becomes eligible.
     */
    private long consider(int i, Packet h, long now, long earliest) {
        if (h.eligibleAt > now) {
            return Math.min(earliest, h.eligibleAt);
        }
        int vl = sl2vl[h.sl];
        if (credits[vl] < h.wireBytes) {
            creditStalls++;
            return earliest; // woken by returnCredits
        }
        if (readyCount == readyQueue.length) {
            growReady();
        }
        readyQueue[readyCount] = i;
        readyVl[readyCount] = vl;
        readyHead[readyCount] = h;
        readyCount++;
        vlMask |= 1 << vl;
        return earliest;
    }

    /** Whether this port could not start anything now: it is sending. */
    boolean busy(long now) {
        return busyUntil > now;
    }

    private void growReady() {
        int n = readyQueue.length * 2;
        readyQueue = Arrays.copyOf(readyQueue, n);
        readyVl = Arrays.copyOf(readyVl, n);
        readyHead = Arrays.copyOf(readyHead, n);
    }

    /** FCFS: the ready head (on {@code vl}, if ≥ 0) that arrived first, the lower packet id among equals. */
    private int pickFirstCome(int count, int vl) {
        int best = -1;
        Packet bp = null;
        for (int r = 0; r < count; r++) {
            if (vl >= 0 && readyVl[r] != vl) {
                continue;
            }
            Packet h = readyHead[r];
            if (bp == null || h.arrivedAt < bp.arrivedAt || (h.arrivedAt == bp.arrivedAt && h.id < bp.id)) {
                bp = h;
                best = r;
            }
        }
        return best;
    }

    /**
     * Round robin: the first ready queue (on {@code vl}, if ≥ 0) after the last one served on this VL (VL 0 when no VL
     * arbitration), in queue order; the ready queues are listed in that order.
     */
    private int pickRoundRobin(int count, int vl, int queues) {
        int start = roundRobinStart(vl, queues);
        int wrapped = -1;
        for (int r = 0; r < count; r++) {
            if (vl >= 0 && readyVl[r] != vl) {
                continue;
            }
            if (readyQueue[r] >= start) {
                return r;
            }
            if (wrapped < 0) {
                wrapped = r;
            }
        }
        if (wrapped < 0) {
            throw new IllegalStateException("round-robin found nothing among " + count + " ready queues");
        }
        return wrapped;
    }

    private void transmit(Packet p, int vl, long now) {
        if (p.switchWaitsPs != null && node instanceof SwitchNode && p.switchesCrossed < p.switchWaitsPs.length) {
            p.switchWaitsPs[p.switchesCrossed++] = now - p.eligibleAt;
        }
        long ser = serializationPs(p.wireBytes);
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] -= p.wireBytes;
        }
        sentBytes[vl] += p.wireBytes;
        p.vl = vl;
        busyUntil = now + ser;
        long propagation = params.propagationPs();
        if (propagation == 0) {
            // One event for both: the kick and the arrival would be consecutive events at the same time.
            clock.sent(busyUntil, this, p);
        } else {
            clock.kick(busyUntil, this);
            clock.arrive(busyUntil + propagation, this, p);
        }
    }

    /** The end of sending {@code p} when the link has no propagation delay: try the next packet, then deliver p. */
    void sent(Packet p) {
        kick();
        downstream.receive(p, downstreamPort, clock.now());
    }

    /** {@code p} has crossed the link. */
    void arrive(Packet p) {
        downstream.receive(p, downstreamPort, clock.now());
    }

    private long serializationPs(int wireBytes) {
        if (wireBytes >= serialization.length) {
            return params.serializationPs(wireBytes);
        }
        long ser = serialization[wireBytes];
        if (ser == 0) {
            ser = params.serializationPs(wireBytes);
            serialization[wireBytes] = ser;
        }
        return ser;
    }

    private void scheduleWake(long at) {
        long now = clock.now();
        if (at == Long.MAX_VALUE || (wakeAt > now && wakeAt <= at)) {
            return; // nothing to wait for, or an earlier wake-up is already pending
        }
        wakeAt = at;
        clock.kick(at, this);
    }

    /** Bytes this port has put on its link, all VLs together. */
    long sentBytes() {
        return Arrays.stream(sentBytes).sum();
    }

    @Override
    public String toString() {
        return node.name() + ":out" + index;
    }
}
