package io.saba.rperf.switchmodel;

/** A traffic generator running on a host: a queue its host's output port draws packets from. */
public abstract class Generator implements PacketQueue {
    final int flow;
    final String name;
    final HostNode host;
    final int dstHost;
    final int sl;
    final int payloadBytes;
    /** This generator's place among its host's queues. */
    int queueIndex;
    /** Packets since the last one that asked for an acknowledgement. */
    private int sinceAckRequest;

    Generator(int flow, String name, HostNode host, int dstHost, int sl, int payloadBytes) {
        this.flow = flow;
        this.name = name;
        this.host = host;
        this.dstHost = dstHost;
        this.sl = sl;
        this.payloadBytes = payloadBytes;
    }

    /**
     * Whether the generator has nothing to send until something tells its host ({@link HostNode#activate}): its head
     * is null meanwhile. Generators that may have a packet at any time say false.
     */
    boolean idle() {
        return false;
    }

    /**
     * Sets whether {@code p}, this generator's next packet, asks for an acknowledgement: every
     * {@link ModelParams#ackEvery}-th packet does, and the last of a message.
     */
    final void requestAck(Packet p, boolean lastOfMessage) {
        if (lastOfMessage || ++sinceAckRequest >= host.net.params().ackEvery()) {
            p.ackRequested = true;
            sinceAckRequest = 0;
        }
    }

    /** Called once when the simulation starts. */
    abstract void start(long now);

    /** The destination's acknowledgement of one of this generator's packets has arrived. */
    abstract void onAck(Packet ack, long now);

    public String name() {
        return name;
    }

    public int flow() {
        return flow;
    }
}
