package io.saba.rperf.switchmodel;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

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
    /** Scratch for {@link #kick}: queues whose head could start now, and the VLs they are on. */
    private final BitSet ready = new BitSet();
    private final boolean[] vlReady;

    OutputPort(Node node, int index, ModelParams params, EventQueue clock, Policy policy, VlArbitration vlArb,
               int vls) {
        this.node = node;
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
        this.vlReady = new boolean[vls];
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
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] += bytes;
        }
        kick();
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
        List<PacketQueue> queues = node.queues();
        BitSet contenders = node.contenders(this);
        ready.clear();
        Arrays.fill(vlReady, false);
        long earliest = Long.MAX_VALUE;
        for (int i = contenders.nextSetBit(0); i >= 0; i = contenders.nextSetBit(i + 1)) {
            Packet h = queues.get(i).head(now);
            if (h == null || node.route(h) != this) {
                continue;
            }
            if (h.eligibleAt > now) {
                earliest = Math.min(earliest, h.eligibleAt);
                continue;
            }
            int vl = vlOf(h);
            if (credits[vl] < h.wireBytes) {
                creditStalls++;
                continue; // woken by returnCredits
            }
            ready.set(i);
            vlReady[vl] = true;
        }
        if (ready.isEmpty()) {
            scheduleWake(earliest);
            return;
        }
        int vl = -1;
        if (vlArbiter != null) {
            vl = vlArbiter.choose(vlReady);
        }
        int chosen = pick(queues, vl, now);
        Packet p = queues.get(chosen).poll(now);
        node.polled(chosen, this);
        int pvl = vlOf(p);
        node.departing(p, this, pvl);
        if (vlArbiter != null) {
            vlArbiter.charge(p.wireBytes);
        }
        rrPointer[vlArbiter != null ? pvl : 0] = chosen;
        transmit(p, pvl, now);
        // The queue's new head may want another port of this node.
        node.kickAll();
    }

    private int pick(List<PacketQueue> queues, int vl, long now) {
        if (policy == Policy.FCFS) {
            int best = -1;
            Packet bp = null;
            for (int i = ready.nextSetBit(0); i >= 0; i = ready.nextSetBit(i + 1)) {
                Packet h = queues.get(i).head(now);
                if (vl >= 0 && vlOf(h) != vl) {
                    continue;
                }
                if (bp == null || h.arrivedAt < bp.arrivedAt || (h.arrivedAt == bp.arrivedAt && h.id < bp.id)) {
                    bp = h;
                    best = i;
                }
            }
            return best;
        }
        // Round-robin: first ready queue after the last one served on this VL (VL 0 when no VL arbitration).
        int start = Math.floorMod(rrPointer[vl >= 0 ? vl : 0] + 1, queues.size());
        for (int i = ready.nextSetBit(start); i >= 0; i = ready.nextSetBit(i + 1)) {
            if (vl < 0 || vlOf(queues.get(i).head(now)) == vl) {
                return i;
            }
        }
        for (int i = ready.nextSetBit(0); i >= 0 && i < start; i = ready.nextSetBit(i + 1)) {
            if (vl < 0 || vlOf(queues.get(i).head(now)) == vl) {
                return i;
            }
        }
        throw new IllegalStateException("round-robin found nothing among " + ready);
    }

    private void transmit(Packet p, int vl, long now) {
        if (p.switchWaitsPs != null && node instanceof SwitchNode && p.switchesCrossed < p.switchWaitsPs.length) {
            p.switchWaitsPs[p.switchesCrossed++] = now - p.eligibleAt;
        }
        long ser = params.serializationPs(p.wireBytes);
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] -= p.wireBytes;
        }
        sentBytes[vl] += p.wireBytes;
        p.vl = vl;
        busyUntil = now + ser;
        clock.at(busyUntil, this::kick);
        Receiver r = downstream;
        int port = downstreamPort;
        clock.at(busyUntil + params.propagationPs(), () -> r.receive(p, port, clock.now()));
    }

    private void scheduleWake(long at) {
        long now = clock.now();
        if (at == Long.MAX_VALUE || (wakeAt > now && wakeAt <= at)) {
            return; // nothing to wait for, or an earlier wake-up is already pending
        }
        wakeAt = at;
        clock.at(at, this::kick);
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
