package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An input-buffered switch: per input port and per VL a bounded FIFO ({@link InputBuffer}); a packet that
 * has fully arrived becomes eligible after the port-to-port latency; every output port arbitrates over the
 * heads of all input buffers with its own policy and VL arbiter.
 */
public final class SwitchNode extends Node {
    private final InputBuffer[][] buffers; // [port][vl]
    private final List<PacketQueue> queueOrder;
    private final Map<Integer, Integer> routes = new HashMap<>();
    private final long latencyPs;

    SwitchNode(String name, Network net, int ports, int vls, int[] sl2vl, Policy policy, VlArbitration vlArb) {
        super(name, net, sl2vl);
        this.latencyPs = net.params().switchLatencyPs();
        this.buffers = new InputBuffer[ports][vls];
        List<PacketQueue> order = new ArrayList<>();
        for (int port = 0; port < ports; port++) {
            for (int vl = 0; vl < vls; vl++) {
                buffers[port][vl] = new InputBuffer(port, vl, net.params().inputBufferBytes(), net.clock(),
                        net.params().creditDelayPs());
                order.add(buffers[port][vl]);
            }
            outputs.add(new OutputPort(this, port, net.params(), net.clock(), policy, vlArb, vls));
        }
        this.queueOrder = Collections.unmodifiableList(order);
    }

    /** Packets for host {@code dstHost} leave by {@code port}. */
    public SwitchNode route(int dstHost, int port) {
        routes.put(dstHost, port);
        return this;
    }

    @Override
    List<PacketQueue> queues() {
        return queueOrder;
    }

    @Override
    OutputPort route(Packet p) {
        Integer port = routes.get(p.dstHost);
        if (port == null) {
            throw new IllegalStateException(name() + " has no route to host " + p.dstHost);
        }
        return outputs.get(port);
    }

    @Override
    public void receive(Packet p, int port, long now) {
        p.arrivedAt = now;
        p.eligibleAt = now + latencyPs;
        buffers[port][vlOf(p)].add(p);
        net.clock().at(p.eligibleAt, () -> route(p).kick());
    }

    @Override
    public long creditsFor(int port, int vl) {
        return buffers[port][vl].capacityBytes;
    }

    @Override
    public void connectUpstream(int port, OutputPort upstream) {
        for (InputBuffer b : buffers[port]) {
            b.upstream = upstream;
        }
    }

    InputBuffer buffer(int port, int vl) {
        return buffers[port][vl];
    }
}
