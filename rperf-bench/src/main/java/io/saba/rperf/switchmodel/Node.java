package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/** A switch or a host: queues that feed its output ports, routing, and the SL-to-VL table its ports start with. */
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

    public String name() {
        return name;
    }

    /** Queue {@code queue} lost its head to output {@code from}: its next head may want another output. */
    abstract void polled(int queue, OutputPort from);

    /** {@code p} has been taken from its queue and starts on output {@code from}, on {@code vl} of its link. */
    void departing(Packet p, OutputPort from, int vl) {
    }

    /** The output this packet leaves by. */
    abstract OutputPort route(Packet p);

    /** The SL-to-VL table every output port of this node starts with. */
    int[] defaultSl2Vl() {
        return sl2vl.clone();
    }

    /** Every output port tries to start a packet (those busy sending at {@code now} cannot). */
    void kickAll(long now) {
        for (OutputPort o : outputArray()) {
            if (!o.busy(now)) {
                o.kick();
            }
        }
    }

    private OutputPort[] outputArray = new OutputPort[0];

    /** {@link #outputs} as an array, made once the ports are all there. */
    OutputPort[] outputArray() {
        if (outputArray.length != outputs.size()) {
            outputArray = outputs.toArray(new OutputPort[0]);
        }
        return outputArray;
    }

    OutputPort output(int port) {
        return outputs.get(port);
    }

    @Override
    public String toString() {
        return name;
    }
}
