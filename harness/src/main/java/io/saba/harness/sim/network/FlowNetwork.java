package io.saba.harness.sim.network;

import io.saba.core.alloc.PortId;
import java.util.List;

/** A network as the simulator sees it: immutable, thread-safe. Capacities are in bytes per second. */
public interface FlowNetwork {
    /** Host names, in a stable order (placement draws index into it). */
    List<String> hosts();

    /** The output ports a flow from {@code src} to {@code dst} crosses, first hop first (empty if src = dst). */
    List<PortId> path(String src, String dst);

    /** Capacity of an output port, bytes per second. */
    double capacity(PortId port);

    /** Line rate of a host's link, bytes per second (what "100 % of the link" means to the profiler). */
    double hostLinkRate();
}
