package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/**
 * A two-level leaf-spine fabric (a folded Clos, the two-level fat tree of InfiniBand clusters): {@code leaves}
 * leaf switches with {@code hostsPerLeaf} hosts each, {@code spines} spine switches, one link from every leaf to
 * every spine. Oversubscription is hosts per leaf over uplinks per leaf (6 hosts and 6 spines: 1:1; 6 and 2: 3:1).
 *
 * <p><b>Names and ports.</b> Hosts {@code h0…}, numbered leaf by leaf (host h is on leaf h / hostsPerLeaf), each
 * with port 0. Leaves {@code leaf0…}: ports 0 … hostsPerLeaf − 1 down to their hosts in order, then one port per
 * spine. Spines {@code spine0…}: port l down to leaf l.
 *
 * <p><b>Routing</b> is destination-based and deterministic, as an InfiniBand subnet manager programs linear
 * forwarding tables: a leaf sends a packet for a host on another leaf up to spine (destination mod spines), the
 * D-mod-K rule of Zahavi et al., which is what OpenSM's fat-tree routing amounts to on a two-level tree (every
 * destination reached through one spine, destinations spread evenly over the spines). Down is unique. So every
 * flow to a host crosses the same spine, and a host's downlink is the only place where flows from different
 * spines meet.
 */
public final class LeafSpine {
    /** One output port: its node's name and port number. */
    public record Hop(String node, int port) {
    }

    /** The tiers of output ports, in the order a packet between leaves crosses them. */
    public enum Tier {
        /** a host's NIC, into its leaf */
        NIC,
        /** a leaf's port up to a spine */
        LEAF_UP,
        /** a spine's port down to a leaf */
        SPINE_DOWN,
        /** a leaf's port down to one of its hosts */
        LEAF_DOWN
    }

    /** Which tier an output port of this fabric is in. */
    public Tier tierOf(Hop port) {
        if (port.node().startsWith("h")) {
            return Tier.NIC;
        }
        if (port.node().startsWith("spine")) {
            return Tier.SPINE_DOWN;
        }
        if (port.node().startsWith("leaf")) {
            return port.port() < hostsPerLeaf ? Tier.LEAF_DOWN : Tier.LEAF_UP;
        }
        throw new IllegalArgumentException("no port " + port + " in " + this);
    }

    private final int leaves;
    private final int hostsPerLeaf;
    private final int spines;

    public LeafSpine(int leaves, int hostsPerLeaf, int spines) {
        if (leaves < 1 || hostsPerLeaf < 1 || spines < 1) {
            throw new IllegalArgumentException("a leaf-spine needs ≥ 1 leaf, host per leaf and spine; got " + leaves
                    + " leaves, " + hostsPerLeaf + " hosts per leaf, " + spines + " spines");
        }
        this.leaves = leaves;
        this.hostsPerLeaf = hostsPerLeaf;
        this.spines = spines;
    }

    /**
     * {@code leaves} leaves of {@code hostsPerLeaf} hosts with hostsPerLeaf / oversubscription spines.
     *
     * @throws IllegalArgumentException if the oversubscription does not divide the hosts per leaf
     */
    public static LeafSpine oversubscribed(int leaves, int hostsPerLeaf, int oversubscription) {
        if (oversubscription < 1 || hostsPerLeaf % oversubscription != 0) {
            throw new IllegalArgumentException("oversubscription " + oversubscription + ":1 must divide the "
                    + hostsPerLeaf + " hosts per leaf");
        }
        return new LeafSpine(leaves, hostsPerLeaf, hostsPerLeaf / oversubscription);
    }

    public int leaves() {
        return leaves;
    }

    public int hostsPerLeaf() {
        return hostsPerLeaf;
    }

    public int spines() {
        return spines;
    }

    public int hosts() {
        return leaves * hostsPerLeaf;
    }

    public int leafOf(int host) {
        return host / hostsPerLeaf;
    }

    public static String hostName(int host) {
        return "h" + host;
    }

    public static String leafName(int leaf) {
        return "leaf" + leaf;
    }

    public static String spineName(int spine) {
        return "spine" + spine;
    }

    /** The spine every flow to {@code dstHost} from another leaf crosses (D-mod-K). */
    public int spineOf(int dstHost) {
        return dstHost % spines;
    }

    /**
     * The output ports a packet from {@code src} to {@code dst} leaves by, first hop (the source's NIC) first; empty
     * when both are the same host.
     */
    public List<Hop> path(int src, int dst) {
        checkHost(src);
        checkHost(dst);
        List<Hop> hops = new ArrayList<>(4);
        if (src == dst) {
            return hops;
        }
        hops.add(new Hop(hostName(src), 0));
        int srcLeaf = leafOf(src);
        int dstLeaf = leafOf(dst);
        if (srcLeaf != dstLeaf) {
            hops.add(new Hop(leafName(srcLeaf), hostsPerLeaf + spineOf(dst)));
            hops.add(new Hop(spineName(spineOf(dst)), dstLeaf));
        }
        hops.add(new Hop(leafName(dstLeaf), dst % hostsPerLeaf));
        return hops;
    }

    private void checkHost(int h) {
        if (h < 0 || h >= hosts()) {
            throw new IllegalArgumentException("no host " + h + " in a fabric of " + hosts());
        }
    }

    /** The fabric as a packet-level network, every port with the network's SL-to-VL table and no VL arbitration. */
    public Fabric build(ModelParams params, Policy policy, int vls) {
        Network net = new Network(params, vls, new int[16]);
        List<HostNode> hostNodes = new ArrayList<>();
        for (int h = 0; h < hosts(); h++) {
            hostNodes.add(net.addHost(hostName(h), null));
        }
        List<SwitchNode> leafNodes = new ArrayList<>();
        for (int l = 0; l < leaves; l++) {
            leafNodes.add(net.addSwitch(leafName(l), hostsPerLeaf + spines, policy, null));
        }
        List<SwitchNode> spineNodes = new ArrayList<>();
        for (int s = 0; s < spines; s++) {
            spineNodes.add(net.addSwitch(spineName(s), leaves, policy, null));
        }
        for (int h = 0; h < hosts(); h++) {
            net.link(hostNodes.get(h), 0, leafNodes.get(leafOf(h)), h % hostsPerLeaf);
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                net.link(leafNodes.get(l), hostsPerLeaf + s, spineNodes.get(s), l);
            }
        }
        for (int dst = 0; dst < hosts(); dst++) {
            for (int l = 0; l < leaves; l++) {
                leafNodes.get(l).route(dst, l == leafOf(dst) ? dst % hostsPerLeaf : hostsPerLeaf + spineOf(dst));
            }
            for (SwitchNode s : spineNodes) {
                s.route(dst, leafOf(dst));
            }
        }
        return new Fabric(this, net, hostNodes, leafNodes, spineNodes);
    }

    @Override
    public String toString() {
        return String.format("%d leaves × %d hosts, %d spines (%s:1)", leaves, hostsPerLeaf, spines,
                hostsPerLeaf % spines == 0 ? String.valueOf(hostsPerLeaf / spines)
                        : String.format(java.util.Locale.ROOT, "%.2f", (double) hostsPerLeaf / spines));
    }

    /** A built fabric: its shape, the network, and its nodes by number. */
    public record Fabric(LeafSpine shape, Network network, List<HostNode> hosts, List<SwitchNode> leaves,
                         List<SwitchNode> spines) {
        public Fabric {
            hosts = List.copyOf(hosts);
            leaves = List.copyOf(leaves);
            spines = List.copyOf(spines);
        }

        /** Sets one output port's SL-to-VL table and VL arbitration, the port named as {@link #path} names it. */
        public void configurePort(Hop port, int[] sl2vl, VlArbitration vlArb) {
            String n = port.node();
            if (n.startsWith("h")) {
                hosts.get(index(n, "h", hosts.size())).configurePort(sl2vl, vlArb);
            } else if (n.startsWith("leaf")) {
                leaves.get(index(n, "leaf", leaves.size())).configurePort(port.port(), sl2vl, vlArb);
            } else if (n.startsWith("spine")) {
                spines.get(index(n, "spine", spines.size())).configurePort(port.port(), sl2vl, vlArb);
            } else {
                throw new IllegalArgumentException("no node " + n + " in " + shape);
            }
        }

        /** Every switch input port's buffer of {@code vl} resized to {@code bytes} (before any traffic). */
        public void resizeBuffers(int vl, int bytes) {
            for (List<SwitchNode> tier : List.of(leaves, spines)) {
                for (SwitchNode s : tier) {
                    for (int p = 0; p < s.outputs.size(); p++) {
                        s.resizeBuffer(p, vl, bytes);
                    }
                }
            }
        }

        private static int index(String name, String prefix, int count) {
            try {
                int i = Integer.parseInt(name.substring(prefix.length()));
                if (i >= 0 && i < count) {
                    return i;
                }
            } catch (NumberFormatException e) {
                // fall through
            }
            throw new IllegalArgumentException("no node " + name);
        }
    }
}
