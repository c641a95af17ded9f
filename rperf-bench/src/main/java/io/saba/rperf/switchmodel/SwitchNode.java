package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An input-buffered switch: per input port and per VL a bounded FIFO ({@link InputBuffer}); a packet that
 * has fully arrived becomes eligible after the port-to-port latency; every output port arbitrates over the
 * heads of all input buffers with its own policy and VL arbiter.
 */
public final class SwitchNode extends Node {
    private final InputBuffer[][] buffers; // [port][vl]
    private final int vls;
    private final InputBuffer[] queueArray;
    /** Per output port: the buffers (as queue indices, port × vls + vl) whose head is routed there. */
    private final QueueSet[] contenders;
    /** Output port per destination host id; -1 where there is no route. */
    private int[] routes = new int[0];
    private final long latencyPs;
    /** Per output port and VL: bytes waiting for it in this switch's input buffers (congestion control's queue). */
    private final long[][] queuedFor;
    /** Per output port and VL: data packets sent while congested, for the marking rate. */
    private final long[][] sentCongested;

    SwitchNode(String name, Network net, int ports, int vls, int[] sl2vl, Policy policy, VlArbitration vlArb) {
        super(name, net, sl2vl);
        this.latencyPs = net.params().switchLatencyPs();
        this.vls = vls;
        this.buffers = new InputBuffer[ports][vls];
        this.contenders = new QueueSet[ports];
        List<InputBuffer> order = new ArrayList<>();
        for (int port = 0; port < ports; port++) {
            for (int vl = 0; vl < vls; vl++) {
                buffers[port][vl] = new InputBuffer(port, vl, net.params().inputBufferBytes(), net.clock(),
                        net.params().creditDelayPs());
                order.add(buffers[port][vl]);
            }
            outputs.add(new OutputPort(this, port, net.params(), net.clock(), policy, vlArb, vls));
            contenders[port] = new QueueSet();
        }
        this.queueArray = order.toArray(new InputBuffer[0]);
        this.queuedFor = new long[ports][vls];
        this.sentCongested = new long[ports][vls];
    }

    /** Packets for host {@code dstHost} leave by {@code port}. */
    public SwitchNode route(int dstHost, int port) {
        if (port < 0 || port >= outputs.size()) {
            throw new IllegalArgumentException(name() + " has no port " + port);
        }
        if (dstHost >= routes.length) {
            int old = routes.length;
            routes = Arrays.copyOf(routes, Math.max(dstHost + 1, 2 * old));
            Arrays.fill(routes, old, routes.length, -1);
        }
        routes[dstHost] = port;
        return this;
    }

    /**
     * Sets output port {@code port}'s SL-to-VL table (index = SL) and VL arbitration (null: none), as a subnet
     * manager or Saba's InfiniBand backend writes them.
     */
    public void configurePort(int port, int[] sl2vl, VlArbitration vlArb) {
        outputs.get(port).configure(sl2vl, vlArb);
    }

    /**
     * Resizes the buffer of one VL at input port {@code port} before any traffic (a switch that splits a port's
     * memory over the VLs in use); the sender on the other end of the link gets the new size as credits.
     */
    public void resizeBuffer(int port, int vl, int bytes) {
        InputBuffer b = buffers[port][vl];
        if (b.size() > 0 || (b.upstream != null && b.upstream.credits(vl) != b.capacityBytes)) {
            throw new IllegalStateException("buffer " + name() + ":" + port + " VL " + vl + " resized under traffic");
        }
        b.capacityBytes = bytes;
        if (b.upstream != null) {
            b.upstream.resetCredits(vl, bytes);
        }
    }

    /** The input buffers in queue order (port × VLs + VL). */
    InputBuffer[] bufferArray() {
        return queueArray;
    }

    /** The buffers (as queue indices) whose head may want output {@code o}. */
    QueueSet contenders(OutputPort o) {
        return contenders[o.index];
    }

    /** Kicks only the ports that could start something: idle, with a head routed to them. */
    @Override
    void kickAll(long now) {
        for (OutputPort o : outputArray()) {
            if (!contenders[o.index].isEmpty() && !o.busy(now)) {
                o.kick();
            }
        }
    }

    @Override
    void polled(int queue, OutputPort from) {
        contenders[from.index].clear(queue);
        Packet next = queueArray[queue].head();
        if (next != null) {
            contenders[routePort(next)].set(queue);
        }
    }

    int routePort(Packet p) {
        int port = p.dstHost < routes.length ? routes[p.dstHost] : -1;
        if (port < 0) {
            throw new IllegalStateException(name() + " has no route to host " + p.dstHost);
        }
        return port;
    }

    @Override
    OutputPort route(Packet p) {
        return outputs.get(routePort(p));
    }

    @Override
    public void receive(Packet p, int port, long now) {
        p.arrivedAt = now;
        p.eligibleAt = now + latencyPs;
        InputBuffer b = buffers[port][p.vl];
        b.add(p);
        OutputPort out = route(p);
        queuedFor[out.index][out.vlOf(p)] += p.wireBytes;
        if (b.size() == 1) {
            contenders[out.index].set(port * vls + p.vl);
        }
        // A port still sending when the packet becomes eligible would ignore the kick: it tries again when done.
        if (!out.busy(p.eligibleAt)) {
            net.clock().kickAfterFixedDelay(p.eligibleAt, out);
        }
    }

    @Override
    void departing(Packet p, OutputPort from, int vl) {
        long queued = queuedFor[from.index][vl];
        queuedFor[from.index][vl] = queued - p.wireBytes;
        CongestionControl cc = net.congestionControl();
        if (cc != null && p.kind == Packet.Kind.DATA && queued >= cc.thresholdBytes()
                && sentCongested[from.index][vl]++ % cc.markingRate() == 0) {
            p.fecn = true;
        }
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

    /** Bytes waiting in this switch's input buffers (0 once the fabric has drained). */
    long bufferedBytes() {
        long sum = 0;
        for (InputBuffer[] port : buffers) {
            for (InputBuffer b : port) {
                sum += b.usedBytes();
            }
        }
        return sum;
    }
}
