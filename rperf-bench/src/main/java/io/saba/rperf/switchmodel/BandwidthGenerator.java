package io.saba.rperf.switchmodel;

/**
 * BSG: open loop, always has a packet ready (a saturating sender), so its rate is set by credits and
 * arbitration alone. An optional minimum gap between packets models a NIC's message-rate limit, which
 * is what caps small-message senders on real hardware.
 */
public final class BandwidthGenerator extends Generator {
    private final long minGapPs;
    private Packet next;
    private long lastStart = Long.MIN_VALUE / 2;

    BandwidthGenerator(int flow, String name, HostNode host, int dstHost, int sl, int payloadBytes, long minGapPs) {
        super(flow, name, host, dstHost, sl, payloadBytes);
        this.minGapPs = minGapPs;
    }

    @Override
    void start(long now) {
        host.output(0).kick();
    }

    @Override
    public Packet head(long now) {
        if (next == null) {
            Network net = host.net;
            next = net.newPacket(Packet.Kind.DATA, flow, host.hostId, dstHost, sl, payloadBytes,
                    net.params().dataWireBytes(payloadBytes), now);
            next.arrivedAt = now;
            next.eligibleAt = Math.max(now, lastStart + minGapPs);
            requestAck(next, false);
        }
        return next;
    }

    @Override
    public Packet poll(long now) {
        Packet p = head(now);
        next = null;
        lastStart = now;
        return p;
    }

    @Override
    void onAck(Packet ack, long now) {
        // open loop: ACKs only occupy the reverse path
    }
}
