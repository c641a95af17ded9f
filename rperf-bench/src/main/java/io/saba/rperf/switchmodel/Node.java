package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/** A switch or a host: queues that feed its output ports, routing, and its SL-to-VL table. */
abstract class Node implements Receiver {
    private final String name;
    final Network net;
    final List<OutputPort> outputs = new ArrayList<>();
    private final int[] sl2vl;

    Node(String name, Network net, int[] sl2vl) {
        this.name = name;
        this.net = net;
        this.sl2vl = sl2vl.clone();
    }

    String name() {
        return name;
    }

    /** Queues in a fixed order (round-robin walks this order). */
    abstract List<PacketQueue> queues();

    /** The output this packet leaves by. */
    abstract OutputPort route(Packet p);

    int vlOf(Packet p) {
        return sl2vl[p.sl];
    }

    void kickAll() {
        for (OutputPort o : outputs) {
            o.kick();
        }
    }

    OutputPort output(int port) {
        return outputs.get(port);
    }

    @Override
    public String toString() {
        return name;
    }
}
