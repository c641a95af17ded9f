package io.saba.harness.sim.network;

import io.saba.core.alloc.PortId;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A core {@link Topology} as the simulator sees it. The core's paths list switch output ports only (Saba enforces
 * in switches); a flow also leaves its source host through the host's NIC, which is where a server running many
 * jobs is congested first, so this network puts that port (node = host name, port 0) in front of every path.
 * Routes are the core's (deterministic ECMP per host pair) and are cached per pair.
 */
public final class TopologyNetwork implements FlowNetwork {
    /** Port number of a host's NIC egress in simulator paths. */
    public static final int HOST_NIC = 0;

    private final Topology topology;
    private final List<String> hosts;
    private final double hostRate;
    private final Map<String, Boolean> isHost = new HashMap<>();
    private final java.util.Set<PortId> towardHost = new java.util.HashSet<>();

    /**
     * @param topology the network
     * @param hostGbps rate of host links (the NIC port)
     */
    public TopologyNetwork(Topology topology, double hostGbps) {
        this.topology = topology;
        this.hosts = List.copyOf(topology.hosts());
        this.hostRate = hostGbps * 1e9 / 8;
        hosts.forEach(h -> isHost.put(h, true));
        for (io.saba.core.topology.Link l : topology.links()) {
            if (isHost.containsKey(l.b())) {
                towardHost.add(new PortId(l.a(), l.portA()));
            }
            if (isHost.containsKey(l.a())) {
                towardHost.add(new PortId(l.b(), l.portB()));
            }
        }
    }

    public Topology topology() {
        return topology;
    }

    /** Whether a port is a host NIC (not a switch port of the topology). */
    public boolean isHostPort(PortId port) {
        return port.port() == HOST_NIC && isHost.containsKey(port.node());
    }

    /** Whether a port is a switch's last hop toward a host (where a receiver-driven transport schedules). */
    public boolean isTowardHost(PortId port) {
        return towardHost.contains(port);
    }

    @Override
    public List<String> hosts() {
        return hosts;
    }

    @Override
    public List<PortId> path(String src, String dst) {
        if (src.equals(dst)) {
            return List.of();
        }
        List<PortId> sw = topology.path(src, dst);
        List<PortId> p = new ArrayList<>(sw.size() + 1);
        p.add(new PortId(src, HOST_NIC));
        p.addAll(sw);
        return p;
    }

    @Override
    public double capacity(PortId port) {
        return isHostPort(port) ? hostRate : topology.capacityGbps(port) * 1e9 / 8;
    }

    @Override
    public double hostLinkRate() {
        return hostRate;
    }
}
