package io.saba.controller.topology.infiniband;

import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * One snapshot of an InfiniBand subnet: its nodes, cables and every switch's linear forwarding table, as
 * {@code ibnetdiscover} and {@code dump_fts} report them. Answers which switch output ports a packet from one host
 * port to another crosses, by walking the forwarding tables exactly as the switches do. Immutable; pure logic.
 *
 * <p><b>Names.</b> A switch is named by its node description when no other node shares it (ibsim: "Switch1"), else
 * by {@code guid:0x…}. A host is a channel-adapter port: the adapter's description (or guid) when it has one cabled
 * port, {@code name/port} otherwise.
 */
public final class IbSubnet {
    /** A switch or channel adapter. {@code lid} is the switch's port-0 LID (switches) or 0 (adapters). */
    public record Node(long guid, boolean isSwitch, String description, int ports, int lid) {
    }

    /** One end of a cable. */
    public record End(long nodeGuid, int port) {
    }

    /** A host: one cabled channel-adapter port with its base LID and LMC. */
    public record Host(String name, long nodeGuid, int port, long portGuid, int baseLid, int lmc) {
        /** LIDs this port answers to: base … base + 2^lmc − 1. */
        public int lidCount() {
            return 1 << lmc;
        }
    }

    private final Map<Long, Node> nodes;
    private final Map<End, End> cables;
    /** switch guid → (LID → output port); ports 0 are the switch itself, 255 means "no route". */
    private final Map<Long, Map<Integer, Integer>> lft;
    private final Map<String, Host> hosts;
    private final Map<Long, String> switchNames;
    private final Map<String, Long> switchByName;

    public IbSubnet(Map<Long, Node> nodes, Map<End, End> cables, Map<Long, Map<Integer, Integer>> lft,
                    Map<End, int[]> lidAndLmcOfCaPort, Map<End, Long> portGuidOfCaPort) {
        this.nodes = Map.copyOf(nodes);
        this.cables = Map.copyOf(cables);
        Map<Long, Map<Integer, Integer>> l = new HashMap<>();
        lft.forEach((g, t) -> l.put(g, Map.copyOf(t)));
        this.lft = Map.copyOf(l);
        Map<String, Integer> descCount = new HashMap<>();
        nodes.values().forEach(n -> descCount.merge(n.description(), 1, Integer::sum));
        Map<Long, String> baseName = new HashMap<>();
        for (Node n : nodes.values()) {
            boolean unique = !n.description().isBlank() && descCount.get(n.description()) == 1
                    && !n.description().contains("/");
            baseName.put(n.guid(), unique ? n.description() : String.format("guid:0x%016x", n.guid()));
        }
        Map<Long, String> sw = new TreeMap<>();
        Map<String, Long> swBy = new HashMap<>();
        Map<Long, Integer> cabledPorts = new HashMap<>();
        for (End e : cables.keySet()) {
            cabledPorts.merge(e.nodeGuid(), 1, Integer::sum);
        }
        Map<String, Host> h = new TreeMap<>();
        for (Node n : nodes.values()) {
            if (n.isSwitch()) {
                sw.put(n.guid(), baseName.get(n.guid()));
                swBy.put(baseName.get(n.guid()), n.guid());
            }
        }
        lidAndLmcOfCaPort.forEach((end, lidLmc) -> {
            Node n = nodes.get(end.nodeGuid());
            if (n == null || n.isSwitch() || !cables.containsKey(end)) {
                return;
            }
            String name = cabledPorts.getOrDefault(n.guid(), 0) > 1
                    ? baseName.get(n.guid()) + "/" + end.port() : baseName.get(n.guid());
            h.put(name, new Host(name, n.guid(), end.port(), portGuidOfCaPort.getOrDefault(end, 0L),
                    lidLmc[0], lidLmc[1]));
        });
        this.hosts = Collections.unmodifiableMap(h);
        this.switchNames = Collections.unmodifiableMap(sw);
        this.switchByName = Map.copyOf(swBy);
    }

    public Map<Long, Node> nodes() {
        return nodes;
    }

    /** Host name → host, in name order. */
    public Map<String, Host> hosts() {
        return hosts;
    }

    /** Switch guid → the name its {@link PortId}s carry. */
    public Map<Long, String> switchNames() {
        return switchNames;
    }

    /** The switch a port name refers to, by name or {@code guid:0x…}. */
    public Node switchNamed(String name) {
        Long g = switchByName.get(name);
        if (g == null && name.startsWith("guid:")) {
            g = Long.parseUnsignedLong(name.substring(7), 16);
        }
        Node n = g == null ? null : nodes.get(g);
        return n != null && n.isSwitch() ? n : null;
    }

    /** The far end of a cable, or null if the port is not cabled. */
    public End peer(End e) {
        return cables.get(e);
    }

    public Map<Long, Map<Integer, Integer>> forwardingTables() {
        return lft;
    }

    /**
     * The switch output ports a packet from {@code src} to {@code dst}'s LID base + {@code lidOffset} leaves
     * through, in order.
     *
     * @throws IllegalStateException if a switch has no route, the route loops, or it ends somewhere else
     */
    public List<PortId> path(String src, String dst, int lidOffset) {
        Host s = host(src);
        Host d = host(dst);
        if (s.equals(d)) {
            return List.of();
        }
        if (lidOffset < 0 || lidOffset >= d.lidCount()) {
            throw new IllegalArgumentException("LID offset " + lidOffset + " is outside " + dst + "'s LMC "
                    + d.lmc());
        }
        int dlid = d.baseLid() + lidOffset;
        List<PortId> out = new ArrayList<>();
        End at = peer(new End(s.nodeGuid(), s.port()));
        Set<Long> seen = new LinkedHashSet<>();
        while (at != null) {
            Node n = nodes.get(at.nodeGuid());
            if (n == null) {
                throw new IllegalStateException("route " + src + "→" + dst + " reaches unknown node "
                        + Long.toHexString(at.nodeGuid()));
            }
            if (!n.isSwitch()) {
                if (n.guid() == d.nodeGuid() && at.port() == d.port()) {
                    return out;
                }
                throw new IllegalStateException("route " + src + "→" + dst + " (LID " + dlid + ") ends at "
                        + describe(n) + " port " + at.port());
            }
            if (!seen.add(n.guid())) {
                throw new IllegalStateException("route " + src + "→" + dst + " (LID " + dlid + ") loops at "
                        + switchNames.get(n.guid()));
            }
            Integer outPort = lft.getOrDefault(n.guid(), Map.of()).get(dlid);
            if (outPort == null || outPort == 0 || outPort == 255) {
                throw new IllegalStateException("switch " + switchNames.get(n.guid()) + " has no route to LID "
                        + dlid + " (" + dst + ")");
            }
            out.add(new PortId(switchNames.get(n.guid()), outPort));
            at = peer(new End(n.guid(), outPort));
        }
        throw new IllegalStateException("route " + src + "→" + dst + " leaves through an uncabled port at "
                + (out.isEmpty() ? src : out.get(out.size() - 1)));
    }

    /**
     * What keeps these hosts from being routed, one phrase per host, in name order (empty when the subnet manager
     * has configured them): a host without a LID, or a switch without a forwarding entry for one of its LIDs.
     * A freshly started subnet has every LID 0 and empty forwarding tables until its subnet manager's first sweep.
     */
    public List<String> unrouted(java.util.Collection<String> hostNames) {
        List<String> out = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(hostNames)) {
            Host h = hosts.get(name);
            if (h == null) {
                out.add(name + " is not in the subnet");
            } else if (h.baseLid() == 0) {
                out.add(name + " has no LID");
            } else {
                String missing = missingRoute(h);
                if (missing != null) {
                    out.add(missing);
                }
            }
        }
        return out;
    }

    private String missingRoute(Host h) {
        for (long sw : switchNames.keySet()) {
            Map<Integer, Integer> t = lft.getOrDefault(sw, Map.of());
            for (int i = 0; i < h.lidCount(); i++) {
                Integer port = t.get(h.baseLid() + i);
                if (port == null || port == 255) {
                    return "switch " + switchNames.get(sw) + " has no route to " + h.name() + " (LID "
                            + (h.baseLid() + i) + ")";
                }
            }
        }
        return null;
    }

    public Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no InfiniBand host named '" + name + "' in the discovered fabric");
        }
        return h;
    }

    private static String describe(Node n) {
        return "\"" + n.description() + "\" (guid 0x" + Long.toHexString(n.guid()) + ")";
    }

    /** Same nodes, cables, LIDs and forwarding tables. */
    public boolean sameAs(IbSubnet o) {
        return o != null && nodes.equals(o.nodes) && cables.equals(o.cables) && lft.equals(o.lft)
                && hosts.equals(o.hosts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(nodes.keySet(), cables.size());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IbSubnet f && sameAs(f);
    }
}
