package io.saba.harness.sim.fabric;

import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The paper's testbed: N hosts on one non-blocking switch. A flow crosses its source's NIC (port 0 of the host)
 * and the switch's output port toward the destination (port = destination index + 1). The switch fabric itself
 * never limits a crossbar, so these two are the only places bandwidth is shared.
 */
public final class SingleSwitchFabric implements Fabric {
    public static final String SWITCH = "sw0";
    private final List<String> hosts;
    private final Map<String, Integer> index = new HashMap<>();
    private final double rate;

    /**
     * @param hostCount number of hosts (named h0, h1, …)
     * @param gbps      link rate in Gbit/s
     */
    public SingleSwitchFabric(int hostCount, double gbps) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < hostCount; i++) {
            names.add("h" + i);
            index.put("h" + i, i);
        }
        this.hosts = List.copyOf(names);
        this.rate = gbps * 1e9 / 8;
    }

    /** The Saba testbed: 32 hosts, 56 Gbit/s. */
    public static SingleSwitchFabric testbed() {
        return new SingleSwitchFabric(32, 56);
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
        return List.of(new PortId(src, 0), new PortId(SWITCH, index.get(dst) + 1));
    }

    @Override
    public double capacity(PortId port) {
        return rate;
    }

    @Override
    public double hostLinkRate() {
        return rate;
    }
}
