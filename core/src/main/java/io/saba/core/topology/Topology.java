package io.saba.core.topology;

import io.saba.core.alloc.PortId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * An immutable network: hosts, switches, the links between them, and each switch's per-port queue count; answers
 * which switch output ports a connection crosses.
 *
 * <p><b>What a path is.</b> {@link #path} lists the <em>switch</em> output ports a host-to-host flow leaves
 * through, in order, ending with the destination's edge-switch port toward the destination host. The source
 * host's own NIC egress is not included: Saba enforces in switches. (A fabric that enforces on hosts can model the
 * host side as a switch.)
 *
 * <p><b>Routing.</b> Shortest paths over the switch graph. Where several next hops lie on a shortest path, each
 * switch picks one by a deterministic hash of (source host, destination host, switch) — like a switch's ECMP hash
 * of the 5-tuple, but with all connections between the same two hosts sharing one path. Distances come from one
 * BFS per destination edge switch, computed on first use and cached (thread-safe), so paths cost O(hops × degree).
 *
 * <p><b>Rules checked at build.</b> Node names are unique; every host has exactly one link, to a switch; every
 * switch port has at least 2 queues (queue 0 is the default class's, see {@code io.saba.core.alloc}); port
 * numbers are unique per node; the whole network is connected.
 */
public final class Topology {
    private final SortedSet<String> hostNames;
    private final SortedSet<String> switchNames;
    private final List<Link> links;
    private final Map<String, Integer> queuesOfSwitch;
    private final Map<PortId, Integer> queuesOfPort;
    private final Map<PortId, Double> gbpsOfPort;
    private final SortedSet<PortId> switchPorts;

    // routing tables, indexed by host / switch number (both in name order)
    private final Map<String, Integer> hostIndex = new HashMap<>();
    private final int[] hostHash;
    private final int[] edgeOfHost;
    private final PortId[] portToHost;
    private final int[] switchHash;
    private final int[][] neighbours;
    private final PortId[][] portToNeighbour;
    private final AtomicReferenceArray<int[]> distanceToSwitch;

    private Topology(Builder b) {
        this.hostNames = Collections.unmodifiableSortedSet(new TreeSet<>(b.hosts));
        this.switchNames = Collections.unmodifiableSortedSet(new TreeSet<>(b.queuesOfSwitch.keySet()));
        this.links = List.copyOf(b.links);
        this.queuesOfSwitch = Collections.unmodifiableMap(new TreeMap<>(b.queuesOfSwitch));

        Map<String, Integer> switchIndex = new HashMap<>();
        String[] switches = switchNames.toArray(String[]::new);
        for (int i = 0; i < switches.length; i++) {
            switchIndex.put(switches[i], i);
        }
        String[] hosts = hostNames.toArray(String[]::new);
        for (int i = 0; i < hosts.length; i++) {
            hostIndex.put(hosts[i], i);
        }
        hostHash = new int[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            hostHash[i] = hosts[i].hashCode();
        }
        switchHash = new int[switches.length];
        for (int i = 0; i < switches.length; i++) {
            switchHash[i] = switches[i].hashCode();
        }

        edgeOfHost = new int[hosts.length];
        Arrays.fill(edgeOfHost, -1);
        portToHost = new PortId[hosts.length];
        Map<PortId, Double> gbps = new HashMap<>();
        List<List<int[]>> adjacency = new ArrayList<>(); // per switch: {neighbour, port}
        for (int i = 0; i < switches.length; i++) {
            adjacency.add(new ArrayList<>());
        }
        for (Link l : links) {
            Integer sa = switchIndex.get(l.a());
            Integer sb = switchIndex.get(l.b());
            if (sa != null && sb != null) {
                adjacency.get(sa).add(new int[] {sb, l.portA()});
                adjacency.get(sb).add(new int[] {sa, l.portB()});
                gbps.put(new PortId(l.a(), l.portA()), l.gbps());
                gbps.put(new PortId(l.b(), l.portB()), l.gbps());
            } else if (sa != null || sb != null) {
                String sw = sa != null ? l.a() : l.b();
                int swPort = sa != null ? l.portA() : l.portB();
                String host = sa != null ? l.b() : l.a();
                int h = hostIndex.get(host);
                if (edgeOfHost[h] >= 0) {
                    throw new IllegalArgumentException("host " + host + " has more than one link; Saba models single-homed hosts");
                }
                edgeOfHost[h] = switchIndex.get(sw);
                portToHost[h] = new PortId(sw, swPort);
                gbps.put(portToHost[h], l.gbps());
            } else {
                throw new IllegalArgumentException("link " + l.a() + "-" + l.b() + " joins two hosts; hosts must attach to a switch");
            }
        }
        for (int h = 0; h < hosts.length; h++) {
            if (edgeOfHost[h] < 0) {
                throw new IllegalArgumentException("host " + hosts[h] + " has no link to a switch");
            }
        }
        // hash maps: queues(port) and gbps(port) are looked up for every port of every allocation round
        this.gbpsOfPort = Collections.unmodifiableMap(new HashMap<>(gbps));
        this.switchPorts = Collections.unmodifiableSortedSet(new TreeSet<>(gbps.keySet()));
        Map<PortId, Integer> queues = new TreeMap<>();
        for (PortId port : switchPorts) {
            queues.put(port, b.queuesOfPort.getOrDefault(port, queuesOfSwitch.get(port.node())));
        }
        for (PortId port : b.queuesOfPort.keySet()) {
            if (!queues.containsKey(port)) {
                throw new IllegalArgumentException("queue count given for " + port + ", which is not a linked switch port");
            }
        }
        this.queuesOfPort = Collections.unmodifiableMap(new HashMap<>(queues));
        neighbours = new int[switches.length][];
        portToNeighbour = new PortId[switches.length][];
        for (int s = 0; s < switches.length; s++) {
            List<int[]> adj = adjacency.get(s);
            adj.sort((x, y) -> Integer.compare(x[1], y[1]));
            neighbours[s] = new int[adj.size()];
            portToNeighbour[s] = new PortId[adj.size()];
            for (int i = 0; i < adj.size(); i++) {
                neighbours[s][i] = adj.get(i)[0];
                portToNeighbour[s][i] = new PortId(switches[s], adj.get(i)[1]);
            }
        }
        distanceToSwitch = new AtomicReferenceArray<>(switches.length);
        if (switches.length > 0) {
            int[] d = distances(0);
            for (int s = 0; s < d.length; s++) {
                if (d[s] < 0) {
                    throw new IllegalArgumentException("the network is disconnected: switch " + switches[s]
                            + " cannot reach " + switches[0]);
                }
            }
        }
    }

    /** A builder for a topology given as explicit nodes and links (what a topology file describes). */
    public static Builder builder() {
        return new Builder();
    }

    /** Host names, sorted. */
    public SortedSet<String> hosts() {
        return hostNames;
    }

    /** Switch names, sorted. */
    public SortedSet<String> switches() {
        return switchNames;
    }

    /** The links, in the order they were added. */
    public List<Link> links() {
        return links;
    }

    /** Every switch output port (toward a switch or a host), sorted. */
    public SortedSet<PortId> switchPorts() {
        return switchPorts;
    }

    /** The number of queues of a switch output port. */
    public int queues(PortId port) {
        Integer q = queuesOfPort.get(Objects.requireNonNull(port, "port"));
        if (q == null) {
            throw new IllegalArgumentException("unknown switch port " + port);
        }
        return q;
    }

    /** The capacity of a switch output port, Gbit/s. */
    public double capacityGbps(PortId port) {
        requirePort(port);
        return gbpsOfPort.get(port);
    }

    /** The smallest queue count of any linked switch port (0 if there are none). */
    public int minQueues() {
        return queuesOfPort.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    }

    /** The switch a host is attached to. */
    public String edgeSwitchOf(String host) {
        return portToHost[indexOfHost(host)].node();
    }

    /**
     * The switch output ports a flow from {@code srcHost} to {@code dstHost} leaves through, in order (empty when
     * both are the same host).
     *
     * @throws IllegalArgumentException naming the host if either is not a host of this topology
     */
    public List<PortId> path(String srcHost, String dstHost) {
        int src = indexOfHost(srcHost);
        int dst = indexOfHost(dstHost);
        if (src == dst) {
            return List.of();
        }
        int target = edgeOfHost[dst];
        int current = edgeOfHost[src];
        int[] distance = current == target ? null : distances(target);
        PortId[] hops = new PortId[(distance == null ? 0 : distance[current]) + 1];
        int n = 0;
        while (current != target) {
            int want = distance[current] - 1;
            int[] next = neighbours[current];
            int candidates = 0;
            for (int v : next) {
                if (distance[v] == want) {
                    candidates++;
                }
            }
            int pick = Math.floorMod(ecmpHash(hostHash[src], hostHash[dst], switchHash[current]), candidates);
            for (int i = 0; i < next.length; i++) {
                if (distance[next[i]] == want && pick-- == 0) {
                    hops[n++] = portToNeighbour[current][i];
                    current = next[i];
                    break;
                }
            }
        }
        hops[n] = portToHost[dst];
        return List.of(hops);
    }

    @Override
    public String toString() {
        return "Topology[" + hostNames.size() + " hosts, " + switchNames.size() + " switches, " + links.size() + " links]";
    }

    private int indexOfHost(String host) {
        Integer i = host == null ? null : hostIndex.get(host);
        if (i == null) {
            throw new IllegalArgumentException("unknown host '" + host + "'");
        }
        return i;
    }

    private void requirePort(PortId port) {
        if (!gbpsOfPort.containsKey(Objects.requireNonNull(port, "port"))) {
            throw new IllegalArgumentException("unknown switch port " + port);
        }
    }

    /** Hop counts from every switch to {@code target} (BFS), cached; -1 where unreachable. */
    private int[] distances(int target) {
        int[] d = distanceToSwitch.get(target);
        if (d != null) {
            return d;
        }
        d = new int[neighbours.length];
        Arrays.fill(d, -1);
        d[target] = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(target);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int v : neighbours[u]) {
                if (d[v] < 0) {
                    d[v] = d[u] + 1;
                    queue.add(v);
                }
            }
        }
        distanceToSwitch.compareAndSet(target, null, d);
        return distanceToSwitch.get(target);
    }

    /** A well-mixed hash of the flow and the deciding switch (SplitMix64 finaliser). */
    private static int ecmpHash(int src, int dst, int sw) {
        long z = ((long) src << 32) ^ (dst & 0xFFFFFFFFL);
        z = z * 0x9E3779B97F4A7C15L + sw;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z = z ^ (z >>> 31);
        return (int) (z ^ (z >>> 32));
    }

    /** Collects nodes and links; {@link #build()} validates them. Port numbers not given start at 1 on each node. */
    public static final class Builder {
        private final List<String> hosts = new ArrayList<>();
        private final Map<String, Integer> queuesOfSwitch = new LinkedHashMap<>();
        private final Map<PortId, Integer> queuesOfPort = new HashMap<>();
        private final List<Link> links = new ArrayList<>();
        private final Map<String, TreeSet<Integer>> usedPorts = new HashMap<>();

        private Builder() {
        }

        /** Adds a host. */
        public Builder host(String name) {
            requireNewName(name);
            hosts.add(name);
            usedPorts.put(name, new TreeSet<>());
            return this;
        }

        /** Adds a switch whose output ports have {@code queues} queues (≥ 2) unless {@link #portQueues} says otherwise. */
        public Builder switchNode(String name, int queues) {
            requireNewName(name);
            if (queues < 2) {
                throw new IllegalArgumentException("switch " + name + " needs at least 2 queues per port (one is the"
                        + " default class's), got " + queues);
            }
            queuesOfSwitch.put(name, queues);
            usedPorts.put(name, new TreeSet<>());
            return this;
        }

        /** Gives one port of a switch its own queue count (≥ 2), overriding the switch's. */
        public Builder portQueues(String switchName, int port, int queues) {
            if (!queuesOfSwitch.containsKey(switchName)) {
                throw new IllegalArgumentException("queue count for unknown switch '" + switchName + "'");
            }
            if (queues < 2) {
                throw new IllegalArgumentException("port " + switchName + ":" + port + " needs at least 2 queues (one is"
                        + " the default class's), got " + queues);
            }
            queuesOfPort.put(new PortId(switchName, port), queues);
            return this;
        }

        /** Links two known nodes on their next free port numbers. */
        public Builder link(String a, String b, double gbps) {
            return link(a, nextPort(a), b, nextPort(b), gbps);
        }

        /** Links two known nodes on the given port numbers. */
        public Builder link(String a, int portA, String b, int portB, double gbps) {
            Link l = new Link(a, portA, b, portB, gbps);
            claim(a, portA);
            claim(b, portB);
            links.add(l);
            return this;
        }

        /**
         * Validates and freezes the topology.
         *
         * @throws IllegalArgumentException if a rule in {@link Topology}'s description is broken
         */
        public Topology build() {
            return new Topology(this);
        }

        private void requireNewName(String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a node needs a name");
            }
            if (usedPorts.containsKey(name)) {
                throw new IllegalArgumentException("node " + name + " is defined twice");
            }
        }

        private int nextPort(String node) {
            TreeSet<Integer> used = portsOf(node);
            return used.isEmpty() ? 1 : used.last() + 1;
        }

        private void claim(String node, int port) {
            if (!portsOf(node).add(port)) {
                throw new IllegalArgumentException("port " + port + " of " + node + " is used twice");
            }
        }

        private TreeSet<Integer> portsOf(String node) {
            TreeSet<Integer> used = usedPorts.get(node);
            if (used == null) {
                throw new IllegalArgumentException("link to unknown node '" + node + "'");
            }
            return used;
        }
    }
}
