package io.saba.controller.topology;

import io.saba.core.alloc.PortId;
import io.saba.core.topology.Link;
import io.saba.core.topology.Topology;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Paths from a static {@link Topology}, hosts found by their configured addresses.
 *
 * <p><b>Host egress.</b> By default a path is the switch output ports a connection leaves through (Saba enforces
 * in switches). With {@link #withHostEgress} the sender's own NIC egress, {@code PortId(host, its link's port)},
 * comes first: where several applications send from one host, that NIC is the first place they contend (on the
 * namespace testbed, with no fan-in, the only one), and a backend that can program host queues (Linux tc on the
 * host, ETS on a NIC) then divides it by the same weights.
 */
public final class TopologyResolver implements PathResolver {
    private final Topology topology;
    private final Map<String, String> hostOfIp;
    private final int hostEgressQueues;
    private final Map<String, PortId> nicOfHost;
    /** Each port's capacity, Gbit/s: a link's, at both of its ends. */
    private final Map<PortId, Double> gbpsOfPort;

    /** @param addressesOfHost host → its literal IP addresses (each address belongs to one host) */
    public TopologyResolver(Topology topology, Map<String, List<String>> addressesOfHost) {
        this(topology, indexAddresses(topology, addressesOfHost), 0);
    }

    private TopologyResolver(Topology topology, Map<String, String> hostOfIp, int hostEgressQueues) {
        this.topology = topology;
        this.hostOfIp = hostOfIp;
        this.hostEgressQueues = hostEgressQueues;
        Map<String, PortId> nics = new HashMap<>();
        if (hostEgressQueues > 0) {
            for (Link l : topology.links()) {
                if (topology.hosts().contains(l.a())) {
                    nics.put(l.a(), new PortId(l.a(), l.portA()));
                } else if (topology.hosts().contains(l.b())) {
                    nics.put(l.b(), new PortId(l.b(), l.portB()));
                }
            }
        }
        this.nicOfHost = Map.copyOf(nics);
        Map<PortId, Double> gbps = new HashMap<>();
        for (Link l : topology.links()) { // both ends of every link: switch ports and hosts' NICs
            gbps.put(new PortId(l.a(), l.portA()), l.gbps());
            gbps.put(new PortId(l.b(), l.portB()), l.gbps());
        }
        this.gbpsOfPort = Map.copyOf(gbps);
    }

    /**
     * This topology with every host's NIC egress managed too, with {@code queues} queues (≥ 2; queue 0 is the
     * default class's, as on a switch port).
     */
    public TopologyResolver withHostEgress(int queues) {
        if (queues < 2) {
            throw new IllegalArgumentException("host-queues must be at least 2 (one is the default class's), got "
                    + queues);
        }
        return new TopologyResolver(topology, hostOfIp, queues);
    }

    /** Queues of each host's NIC egress when it is managed, 0 when paths are switch ports only. */
    public int hostEgressQueues() {
        return hostEgressQueues;
    }

    /**
     * The hosts' NIC egress ports this resolver puts on paths (one per host, sorted); empty when paths are switch
     * ports only. A controller group splits these hosts among its members as it splits the switches.
     */
    public java.util.SortedSet<PortId> hostEgressPorts() {
        return new java.util.TreeSet<>(nicOfHost.values());
    }

    private static Map<String, String> indexAddresses(Topology topology, Map<String, List<String>> addressesOfHost) {
        Map<String, String> byIp = new HashMap<>();
        addressesOfHost.forEach((host, ips) -> {
            if (!topology.hosts().contains(host)) {
                throw new IllegalArgumentException("address given for " + host + ", which is not a topology host");
            }
            for (String ip : ips) {
                String norm = normalise(ip, host);
                String prev = byIp.put(norm, host);
                if (prev != null && !prev.equals(host)) {
                    throw new IllegalArgumentException("address " + ip + " given to both " + prev + " and " + host);
                }
            }
        });
        return Map.copyOf(byIp);
    }

    private static String normalise(String ip, String host) {
        if (!ip.matches("[0-9.]+") && ip.indexOf(':') < 0) {
            throw new IllegalArgumentException("address '" + ip + "' of " + host + " is not a literal IP address");
        }
        try {
            return InetAddress.getByName(ip).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("address '" + ip + "' of " + host + " is not a valid IP address", e);
        }
    }

    public Topology topology() {
        return topology;
    }

    /** IP → host, for status and tests. */
    public Map<String, String> addresses() {
        return hostOfIp;
    }

    @Override
    public Optional<String> hostOf(String ip) {
        return Optional.ofNullable(hostOfIp.get(ip));
    }

    @Override
    public List<PortId> path(String srcHost, String dstHost) {
        List<PortId> switches = topology.path(srcHost, dstHost);
        if (hostEgressQueues == 0 || switches.isEmpty()) {
            return switches;
        }
        List<PortId> withNic = new ArrayList<>(switches.size() + 1);
        withNic.add(nicOfHost.get(srcHost));
        withNic.addAll(switches);
        return List.copyOf(withNic);
    }

    /** The configured capacity of a switch port or of a host's NIC (its link's), empty for a port not in it. */
    @Override
    public OptionalDouble capacityGbps(PortId port) {
        Double gbps = gbpsOfPort.get(port);
        return gbps == null ? OptionalDouble.empty() : OptionalDouble.of(gbps);
    }

    @Override
    public int queues(PortId port) {
        return port.equals(nicOfHost.get(port.node())) ? hostEgressQueues : topology.queues(port);
    }

    @Override
    public int minQueues() {
        return hostEgressQueues == 0 ? topology.minQueues() : Math.min(hostEgressQueues, topology.minQueues());
    }
}
