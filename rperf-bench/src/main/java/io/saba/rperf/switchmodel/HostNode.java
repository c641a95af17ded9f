package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/**
 * An end host: one port, the generators it runs, and an ACK queue. As a receiver it is a sink at line rate that
 * acknowledges at once (RC-style) every data packet that asks for it or is marked FECN, and hands ACKs to the
 * generator that sent the data. Its generators and ACK queue share the output by round-robin within a VL (as an HCA
 * schedules its queue pairs), and VLs by the port's VL arbitration.
 */
public final class HostNode extends Node {
    final int hostId;
    private final List<Generator> generators = new ArrayList<>();
    private final FifoQueue acks = new FifoQueue();
    /** The queues as the port's round robin sees them: which have something to send, and which are steady. */
    private final HostQueues hostQueues;

    HostNode(String name, Network net, int hostId, int vls, int[] sl2vl, VlArbitration vlArb) {
        super(name, net, sl2vl);
        this.hostId = hostId;
        this.hostQueues = new HostQueues(vls, net.params().dataWireBytes(net.params().mtuBytes()));
        outputs.add(new OutputPort(this, 0, net.params(), net.clock(), Policy.RR, vlArb, vls));
        hostQueues.add(acks, false);
    }

    void addGenerator(Generator g) {
        generators.add(g);
        g.queueIndex = hostQueues.add(g, !g.idle());
    }

    /** Sets the NIC port's SL-to-VL table and VL arbitration (null: none), as for a switch port. */
    public void configurePort(int[] sl2vl, VlArbitration vlArb) {
        outputs.get(0).configure(sl2vl, vlArb);
        hostQueues.unsteadyAll();
    }

    HostQueues hostQueues() {
        return hostQueues;
    }

    /** {@code g} has something to send. */
    void activate(Generator g) {
        hostQueues.activate(g.queueIndex);
    }

    /** A BECN reached {@code g}: its head is throttled now. */
    void throttled(Generator g) {
        hostQueues.unsteady(g.queueIndex);
    }

    @Override
    void polled(int queue, OutputPort from) {
        hostQueues.polled(queue, queue == 0 ? acks.size() == 0 : generators.get(queue - 1).idle());
    }

    @Override
    OutputPort route(Packet p) {
        return outputs.get(0);
    }

    @Override
    public void receive(Packet p, int port, long now) {
        if (p.kind == Packet.Kind.DATA) {
            net.stats().delivered(p, now);
            if (p.switchWaitsPs != null) {
                net.stats().switchWaits(p.flow, p.postedAt, p.switchWaitsPs, p.switchesCrossed);
            }
            net.notifyDelivered(p, now);
            if (!p.ackRequested && !p.fecn) {
                return; // coalesced: a later ACK covers it
            }
            Packet ack = net.newPacket(Packet.Kind.ACK, p.flow, hostId, p.srcHost, p.sl, 0,
                    net.params().ackBytes(), p.postedAt);
            ack.arrivedAt = now;
            ack.eligibleAt = now;
            ack.becn = p.fecn;
            acks.add(ack);
            hostQueues.activate(0);
            outputs.get(0).kick();
        } else {
            net.stats().acknowledged(p.flow, now);
            net.generator(p.flow).onAck(p, now);
        }
    }

    @Override
    public long creditsFor(int port, int vl) {
        return Long.MAX_VALUE; // a sink: never back-pressures
    }

    @Override
    public void connectUpstream(int port, OutputPort upstream) {
        // a sink returns no credits
    }
}
