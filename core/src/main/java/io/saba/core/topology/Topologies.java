package io.saba.core.topology;

/**
 * Builders for the topologies Saba is tested and evaluated on: one switch, the paper's three-tier spine-leaf
 * cluster, and k-ary fat trees.
 *
 * <p>Port numbers are given in the order links are added, from 1 on each node: on a switch, host-facing (down)
 * ports come first, then up ports, in the order of the neighbours' indices.
 */
public final class Topologies {
    /** Link speed of the paper's simulated cluster (56 Gbit/s FDR InfiniBand). */
    public static final double PAPER_GBPS = 56.0;
    /** Queues per port in the paper's simulated cluster. */
    public static final int PAPER_QUEUES = 16;

    private Topologies() {
    }

    /**
     * One switch {@code s0} with hosts {@code h1..hN} on ports 1..N.
     *
     * @param hosts  number of hosts (≥ 1)
     * @param gbps   link speed
     * @param queues queues per switch port (≥ 2)
     */
    public static Topology singleSwitch(int hosts, double gbps, int queues) {
        if (hosts < 1) {
            throw new IllegalArgumentException("need at least one host, got " + hosts);
        }
        Topology.Builder b = Topology.builder().switchNode("s0", queues);
        for (int h = 1; h <= hosts; h++) {
            b.host("h" + h).link("s0", h, "h" + h, 1, gbps);
        }
        return b.build();
    }

    /**
     * The paper's simulated cluster (§8): 54 spine, 102 leaf and 108 ToR switches, 18 servers per ToR (1,944
     * servers), 56 Gbit/s links, 16 queues per port. The paper gives only the counts; our wiring is 6 pods of 18 ToRs
     * and 17 leaves, every ToR linked to all 17 leaves of its pod, and every leaf's 18 uplinks spread round-robin over
     * the spines (leaf L, uplink u → spine (18·L + u) mod 54), which gives every spine 34 downlinks and lets every
     * spine reach every pod. See {@link #spineLeaf(int, int, int, int, int, int, double, int)} for names.
     */
    public static Topology spineLeaf() {
        return spineLeaf(6, 18, 17, 18, 54, 18, PAPER_GBPS, PAPER_QUEUES);
    }

    /**
     * A three-tier spine-leaf cluster. Names: spines {@code spine<i>}, leaves {@code p<pod>-leaf<j>}, ToRs
     * {@code p<pod>-tor<t>}, servers {@code p<pod>-tor<t>-h<s>}, all counted from 0. Each ToR links to every leaf of
     * its pod; leaf number L = pod·leavesPerPod + j sends uplink u to spine (L·uplinksPerLeaf + u) mod spines.
     *
     * @param uplinksPerLeaf at most {@code spines}, so no leaf links twice to one spine
     */
    public static Topology spineLeaf(int pods, int torsPerPod, int leavesPerPod, int serversPerTor, int spines,
                                     int uplinksPerLeaf, double gbps, int queues) {
        if (pods < 1 || torsPerPod < 1 || leavesPerPod < 1 || serversPerTor < 1 || spines < 1 || uplinksPerLeaf < 1) {
            throw new IllegalArgumentException("every count of a spine-leaf topology must be ≥ 1");
        }
        if (uplinksPerLeaf > spines) {
            throw new IllegalArgumentException("a leaf cannot have more uplinks (" + uplinksPerLeaf + ") than there are spines ("
                    + spines + ")");
        }
        Topology.Builder b = Topology.builder();
        for (int p = 0; p < pods; p++) {
            for (int t = 0; t < torsPerPod; t++) {
                String tor = "p" + p + "-tor" + t;
                b.switchNode(tor, queues);
                for (int s = 0; s < serversPerTor; s++) {
                    String host = tor + "-h" + s;
                    b.host(host).link(tor, host, gbps);
                }
            }
            for (int j = 0; j < leavesPerPod; j++) {
                b.switchNode("p" + p + "-leaf" + j, queues);
            }
        }
        for (int i = 0; i < spines; i++) {
            b.switchNode("spine" + i, queues);
        }
        for (int p = 0; p < pods; p++) {
            for (int j = 0; j < leavesPerPod; j++) {
                for (int t = 0; t < torsPerPod; t++) {
                    b.link("p" + p + "-leaf" + j, "p" + p + "-tor" + t, gbps);
                }
            }
        }
        for (int p = 0; p < pods; p++) {
            for (int j = 0; j < leavesPerPod; j++) {
                int leaf = p * leavesPerPod + j;
                for (int u = 0; u < uplinksPerLeaf; u++) {
                    b.link("p" + p + "-leaf" + j, "spine" + ((leaf * uplinksPerLeaf + u) % spines), gbps);
                }
            }
        }
        return b.build();
    }

    /**
     * A k-ary fat tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches, (k/2)² core switches,
     * k/2 hosts per edge switch (k³/4 hosts). Aggregation switch a of every pod links to cores a·k/2 … a·k/2 + k/2 - 1.
     * Names: {@code core<i>}, {@code p<pod>-agg<a>}, {@code p<pod>-edge<e>}, hosts {@code p<pod>-edge<e>-h<h>}.
     *
     * @param k even, ≥ 2
     */
    public static Topology fatTree(int k, double gbps, int queues) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("a fat tree needs an even k ≥ 2, got " + k);
        }
        int half = k / 2;
        Topology.Builder b = Topology.builder();
        for (int p = 0; p < k; p++) {
            for (int e = 0; e < half; e++) {
                String edge = "p" + p + "-edge" + e;
                b.switchNode(edge, queues);
                for (int h = 0; h < half; h++) {
                    String host = edge + "-h" + h;
                    b.host(host).link(edge, host, gbps);
                }
            }
            for (int a = 0; a < half; a++) {
                b.switchNode("p" + p + "-agg" + a, queues);
            }
        }
        for (int c = 0; c < half * half; c++) {
            b.switchNode("core" + c, queues);
        }
        for (int p = 0; p < k; p++) {
            for (int e = 0; e < half; e++) {
                for (int a = 0; a < half; a++) {
                    b.link("p" + p + "-edge" + e, "p" + p + "-agg" + a, gbps);
                }
            }
        }
        for (int p = 0; p < k; p++) {
            for (int a = 0; a < half; a++) {
                for (int c = 0; c < half; c++) {
                    b.link("p" + p + "-agg" + a, "core" + (a * half + c), gbps);
                }
            }
        }
        return b.build();
    }
}
