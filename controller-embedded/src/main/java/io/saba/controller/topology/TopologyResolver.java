package io.saba.controller.topology;

import io.saba.core.alloc.PortId;
import io.saba.core.topology.Topology;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Paths from a static {@link Topology}, hosts found by their configured addresses. */
public final class TopologyResolver implements PathResolver {
    private final Topology topology;
    private final Map<String, String> hostOfIp;

    /** @param addressesOfHost host → its literal IP addresses (each address belongs to one host) */
    public TopologyResolver(Topology topology, Map<String, List<String>> addressesOfHost) {
        this.topology = topology;
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
        this.hostOfIp = Map.copyOf(byIp);
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
        return topology.path(srcHost, dstHost);
    }

    @Override
    public int queues(PortId port) {
        return topology.queues(port);
    }

    @Override
    public int minQueues() {
        return topology.minQueues();
    }
}
