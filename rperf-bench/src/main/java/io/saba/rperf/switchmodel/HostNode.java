package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An end host: one port, the generators it runs, and an ACK queue. As a receiver it is a sink at line
 * rate that acknowledges every data packet at once (RC-style) and hands ACKs to the generator that sent
 * the data. Its generators and ACK queue share the output by round-robin (FCFS would do the same: a host
 * here runs one generator).
 */
public final class HostNode extends Node {
    final int hostId;
    private final List<Generator> generators = new ArrayList<>();
    private final FifoQueue acks = new FifoQueue();
    private final List<PacketQueue> queues = new ArrayList<>();

    HostNode(String name, Network net, int hostId, int vls, int[] sl2vl, VlArbitration vlArb) {
        super(name, net, sl2vl);
        this.hostId = hostId;
        outputs.add(new OutputPort(this, 0, net.params(), net.clock(), Policy.RR, vlArb, vls));
        queues.add(acks);
    }

    void addGenerator(Generator g) {
        generators.add(g);
        queues.add(g);
    }

    @Override
    List<PacketQueue> queues() {
        return Collections.unmodifiableList(queues);
    }

    @Override
    OutputPort route(Packet p) {
        return outputs.get(0);
    }

    @Override
    public void receive(Packet p, int port, long now) {
        if (p.kind == Packet.Kind.DATA) {
            net.stats().delivered(p, now);
            net.notifyDelivered(p, now);
            Packet ack = net.newPacket(Packet.Kind.ACK, p.flow, hostId, p.srcHost, p.sl, 0,
                    net.params().ackBytes(), p.postedAt);
            ack.arrivedAt = now;
            ack.eligibleAt = now;
            acks.add(ack);
            outputs.get(0).kick();
        } else {
            for (Generator g : generators) {
                if (g.flow == p.flow) {
                    g.onAck(p, now);
                }
            }
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

    List<Generator> generators() {
        return generators;
    }
}
