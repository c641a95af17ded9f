package io.saba.rperf.switchmodel;

/**
 * LSG: closed loop, one message outstanding. Posts a packet, waits for its ACK, records the round trip
 * (ACK arrival minus post time) and posts the next one at once.
 */
public final class LatencyGenerator extends Generator {
    /** Switches a latency packet's waits are kept for, at most (see {@link Packet#switchWaitsPs}). */
    static final int MAX_SWITCHES = 8;
    private Packet pending;

    LatencyGenerator(int flow, String name, HostNode host, int dstHost, int sl, int payloadBytes) {
        super(flow, name, host, dstHost, sl, payloadBytes);
    }

    @Override
    void start(long now) {
        post(now);
    }

    private void post(long now) {
        Network net = host.net;
        pending = net.newPacket(Packet.Kind.DATA, flow, host.hostId, dstHost, sl, payloadBytes,
                net.params().dataWireBytes(payloadBytes), now);
        pending.arrivedAt = now;
        pending.eligibleAt = now;
        pending.switchWaitsPs = new long[MAX_SWITCHES];
        requestAck(pending, true);
        host.output(0).kick();
    }

    @Override
    public Packet head(long now) {
        return pending;
    }

    @Override
    public Packet poll(long now) {
        Packet p = pending;
        pending = null;
        return p;
    }

    @Override
    void onAck(Packet ack, long now) {
        host.net.stats().roundTrip(flow, ack.postedAt, now);
        post(now);
    }
}
