package io.saba.rperf.switchmodel;

/**
 * A queue pair sending finite messages, as an application posts them: {@link #post} adds bytes to send, which go
 * out in packets of at most the MTU while any are left. Unlike a {@link BandwidthGenerator} it falls idle when its
 * data is out, so a job made of rounds can wait for its messages to arrive (through
 * {@link Network#onDelivery}) before posting the next ones.
 */
public final class QueuePair extends Generator {
    private long unsentBytes;
    private Packet next;
    /** Congestion control: the table index after the last BECN, when that was, and the last packet's start. */
    private int ccti;
    private long cctiSetAt;
    private long lastStart = Long.MIN_VALUE;

    QueuePair(int flow, String name, HostNode host, int dstHost, int sl, int mtuBytes) {
        super(flow, name, host, dstHost, sl, mtuBytes);
    }

    /** Queues {@code bytes} more to send from the current simulated time on. */
    public void post(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException(name + ": post a positive number of bytes, not " + bytes);
        }
        unsentBytes += bytes;
        host.activate(this);
        host.output(0).kick();
    }

    /** Bytes posted that have not started on the wire yet. */
    public long unsentBytes() {
        return unsentBytes;
    }

    @Override
    boolean idle() {
        return unsentBytes == 0 && next == null;
    }

    @Override
    void start(long now) {
        // idle until the application posts
    }

    @Override
    public Packet head(long now) {
        if (next == null && unsentBytes > 0) {
            Network net = host.net;
            int payload = (int) Math.min(payloadBytes, unsentBytes);
            next = net.newPacket(Packet.Kind.DATA, flow, host.hostId, dstHost, sl, payload,
                    net.params().dataWireBytes(payload), now);
            next.arrivedAt = now;
            requestAck(next, payload == unsentBytes);
        }
        if (next != null) {
            next.eligibleAt = Math.max(next.arrivedAt, throttledUntil(now));
        }
        return next;
    }

    /** Whether congestion control lets the head start at any time from {@code now} until the next BECN. */
    boolean unthrottled(long now) {
        CongestionControl cc = host.net.congestionControl();
        return cc == null || lastStart == Long.MIN_VALUE || index(cc, now) == 0;
    }

    /** With congestion control, the earliest start its index allows after the previous packet's start. */
    private long throttledUntil(long now) {
        CongestionControl cc = host.net.congestionControl();
        int index = cc == null ? 0 : index(cc, now);
        return index == 0 || lastStart == Long.MIN_VALUE ? Long.MIN_VALUE
                : lastStart + cc.interPacketDelayPs(index);
    }

    /** The CCTI now: the value set at the last BECN, less one per timer period since. */
    private int index(CongestionControl cc, long now) {
        return (int) Math.max(0, ccti - (now - cctiSetAt) / cc.cctiTimerPs());
    }

    @Override
    public Packet poll(long now) {
        Packet p = head(now);
        if (p != null) {
            unsentBytes -= p.payloadBytes;
            next = null;
            lastStart = now;
        }
        return p;
    }

    @Override
    void onAck(Packet ack, long now) {
        // delivery is what a job waits for; an ACK matters only for the BECN it may carry
        CongestionControl cc = host.net.congestionControl();
        if (cc != null && ack.becn) {
            ccti = Math.min(cc.cctiLimit(), index(cc, now) + cc.cctiIncrease());
            cctiSetAt = now;
            host.throttled(this);
        }
    }

    /** The host this queue pair sends from. */
    public HostNode host() {
        return host;
    }
}
