package io.saba.rperf.switchmodel;

/**
 * One packet on the wire. Immutable identity (who, where to, how big, which SL); the mutable fields
 * are per-hop bookkeeping set by the node currently holding it.
 */
public final class Packet {
    /** Data carries a generator's message; an ACK is the destination's RC acknowledgement. */
    public enum Kind { DATA, ACK }

    final long id;
    final Kind kind;
    final int flow;
    final int srcHost;
    final int dstHost;
    final int sl;
    final int payloadBytes;
    final int wireBytes;
    /** When the generator posted it (data) or when the data it acknowledges was posted (ACK). */
    final long postedAt;

    /** Arrival (fully received) at the node now holding it: FCFS orders by this. */
    long arrivedAt;
    /** Earliest time it may start on an output link (after the port-to-port latency, or a NIC rate cap). */
    long eligibleAt;
    /**
     * The VL of the link it last crossed, set by the output port that sent it from the SL and that port's SL-to-VL
     * table: which input buffer it waits in at the next switch (the VL may change from hop to hop, as in IB).
     */
    int vl;
    /**
     * A latency generator's packet only (null otherwise): how long it waited at each switch it crossed, in order, from
     * when it could first have left (arrival plus the port-to-port latency) to when it started on the output link:
     * the time behind other packets in its input buffer, the arbitration and the credits. What the round trip does
     * not tell apart (which switch of two holds the latency-sensitive packet).
     */
    long[] switchWaitsPs;
    int switchesCrossed;
    /** Data: its sender asks the receiver to acknowledge it now (the BTH's AckReq bit; see ModelParams#ackEvery). */
    boolean ackRequested;
    /** Data: a congested switch port marked it (forward explicit congestion notification). */
    boolean fecn;
    /** ACK: the data it acknowledges was marked (backward explicit congestion notification). */
    boolean becn;

    Packet(long id, Kind kind, int flow, int srcHost, int dstHost, int sl, int payloadBytes, int wireBytes,
           long postedAt) {
        this.id = id;
        this.kind = kind;
        this.flow = flow;
        this.srcHost = srcHost;
        this.dstHost = dstHost;
        this.sl = sl;
        this.payloadBytes = payloadBytes;
        this.wireBytes = wireBytes;
        this.postedAt = postedAt;
    }

    public int flow() {
        return flow;
    }

    public long id() {
        return id;
    }

    public int srcHost() {
        return srcHost;
    }

    public int dstHost() {
        return dstHost;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    @Override
    public String toString() {
        return kind + "#" + id + "(flow " + flow + ", " + srcHost + "->" + dstHost + ", sl " + sl + ", "
                + wireBytes + " B)";
    }
}
