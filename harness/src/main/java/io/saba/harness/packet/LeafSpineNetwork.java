package io.saba.harness.packet;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.rperf.switchmodel.LeafSpine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A packet-level {@link LeafSpine} as the fluid simulator and Saba's controller see it: hosts {@code h0…}, each
 * flow's output ports (the source's NIC as port 0 of the host, then the switch ports), the same D-mod-K routes the
 * packet model forwards on, every link at one rate. So a job placed on the packet fabric can be simulated in the
 * fluid model on exactly the same paths, and Saba allocates exactly the ports the packets cross.
 */
public final class LeafSpineNetwork implements FlowNetwork {
    private final LeafSpine shape;
    private final double bytesPerSecond;
    private final List<String> hosts;
    private final Map<String, Integer> index = new HashMap<>();

    public LeafSpineNetwork(LeafSpine shape, double gbps) {
        this.shape = shape;
        this.bytesPerSecond = gbps * 1e9 / 8;
        List<String> names = new ArrayList<>();
        for (int h = 0; h < shape.hosts(); h++) {
            names.add(LeafSpine.hostName(h));
            index.put(LeafSpine.hostName(h), h);
        }
        this.hosts = List.copyOf(names);
    }

    /** The host number of a host name ({@code h7} → 7). */
    public int indexOf(String host) {
        Integer i = index.get(host);
        if (i == null) {
            throw new IllegalArgumentException("no host " + host + " in " + shape);
        }
        return i;
    }

    @Override
    public List<String> hosts() {
        return hosts;
    }

    @Override
    public List<PortId> path(String src, String dst) {
        List<PortId> out = new ArrayList<>(4);
        for (LeafSpine.Hop h : shape.path(indexOf(src), indexOf(dst))) {
            out.add(new PortId(h.node(), h.port()));
        }
        return out;
    }

    @Override
    public double capacity(PortId port) {
        return bytesPerSecond;
    }

    @Override
    public double hostLinkRate() {
        return bytesPerSecond;
    }
}
