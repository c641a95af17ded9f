package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/**
 * An output port and the link behind it: arbitrates among the queues of its node whose head packet is
 * routed here, holds the credits the downstream buffer advertised (per VL), and serializes one packet at
 * a time. A packet starts only when it is eligible and the downstream VL has room for all of it.
 */
public final class OutputPort {
    private final Node node;
    final int index;
    private final ModelParams params;
    private final EventQueue clock;
    private final Policy policy;
    private final VlArbiter vlArbiter;
    private final int vls;
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

    OutputPort(Node node, int index, ModelParams params, EventQueue clock, Policy policy, VlArbitration vlArb,
               int vls) {
        this.node = node;
        this.index = index;
        this.params = params;
        this.clock = clock;
        this.policy = policy;
        this.vlArbiter = vlArb == null ? null : new VlArbiter(vlArb);
        this.vls = vls;
        this.rrPointer = new int[vls];
        java.util.Arrays.fill(rrPointer, -1);
        this.sentBytes = new long[vls];
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

    void returnCredits(int vl, int bytes) {
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] += bytes;
        }
        kick();
    }

    long credits(int vl) {
        return credits[vl];
    }

    /** Tries to start a packet now; if none can start yet, arranges to try again when one could. */
    void kick() {
        long now = clock.now();
        if (busyUntil > now || downstream == null) {
            return;
        }
        List<PacketQueue> queues = node.queues();
        List<Integer> ready = new ArrayList<>();
        boolean[] vlReady = new boolean[vls];
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < queues.size(); i++) {
            Packet h = queues.get(i).head(now);
            if (h == null || node.route(h) != this) {
                continue;
            }
            if (h.eligibleAt > now) {
                earliest = Math.min(earliest, h.eligibleAt);
                continue;
            }
            int vl = node.vlOf(h);
            if (credits[vl] < h.wireBytes) {
                creditStalls++;
                continue; // woken by returnCredits
            }
            ready.add(i);
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
        int chosen = pick(queues, ready, vl, now);
        Packet p = queues.get(chosen).poll(now);
        int pvl = node.vlOf(p);
        if (vlArbiter != null) {
            vlArbiter.charge(p.wireBytes);
        }
        rrPointer[vlArbiter != null ? pvl : 0] = chosen;
        transmit(p, pvl, now);
        // The queue's new head may want another port of this node.
        node.kickAll();
    }

    private int pick(List<PacketQueue> queues, List<Integer> ready, int vl, long now) {
        int best = -1;
        if (policy == Policy.FCFS) {
            Packet bp = null;
            for (int i : ready) {
                Packet h = queues.get(i).head(now);
                if (vl >= 0 && node.vlOf(h) != vl) {
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
        int pointerVl = vl >= 0 ? vl : 0;
        int n = queues.size();
        for (int step = 1; step <= n; step++) {
            int i = Math.floorMod(rrPointer[pointerVl] + step, n);
            if (ready.contains(i) && (vl < 0 || node.vlOf(queues.get(i).head(now)) == vl)) {
                return i;
            }
        }
        throw new IllegalStateException("round-robin found nothing among " + ready);
    }

    private void transmit(Packet p, int vl, long now) {
        long ser = params.serializationPs(p.wireBytes);
        if (credits[vl] != Long.MAX_VALUE) {
            credits[vl] -= p.wireBytes;
        }
        sentBytes[vl] += p.wireBytes;
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

    @Override
    public String toString() {
        return node.name() + ":out" + index;
    }
}
