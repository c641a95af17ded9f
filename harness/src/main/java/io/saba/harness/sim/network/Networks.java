package io.saba.harness.sim.network;

import io.saba.core.topology.Topologies;

/** The networks of the paper's experiments, built on the core's topologies. */
public final class Networks {
    /** Link rate of the testbed and of the simulated cluster, Gbit/s. */
    public static final double GBPS = 56;
    /** The testbed switch has 9 VLs per port: queue 0 for the default class, 8 for Saba (paper §8.1). */
    public static final int TESTBED_PORT_QUEUES = 9;

    private Networks() {
    }

    /** N hosts (h1..hN) on one switch, 56 Gbit/s. */
    public static TopologyNetwork singleSwitch(int hosts) {
        return new TopologyNetwork(Topologies.singleSwitch(hosts, GBPS, TESTBED_PORT_QUEUES), GBPS);
    }

    /** The paper's testbed: 32 servers, one 56 Gbit/s switch. */
    public static TopologyNetwork testbed() {
        return singleSwitch(32);
    }

    /** The paper's simulated cluster: 1,944 servers, spine-leaf, 56 Gbit/s, 16 queues per port. */
    public static TopologyNetwork spineLeaf() {
        return new TopologyNetwork(Topologies.spineLeaf(), GBPS);
    }
}
