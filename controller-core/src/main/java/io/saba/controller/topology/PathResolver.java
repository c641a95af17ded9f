package io.saba.controller.topology;

import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Where a connection's bytes go: endpoint address → host, host pair → the switch output ports crossed.
 * {@link TopologyResolver} answers from a static topology (file or shape); a discovered fabric (InfiniBand, module
 * {@code fabric-infiniband}) answers from the switches' forwarding tables and may change under the controller,
 * which it announces through {@link #onPathsChanged}.
 */
public interface PathResolver {
    /** The topology host owning a literal IP address (normalised, as {@code InetAddress#getHostAddress} prints it). */
    Optional<String> hostOf(String ip);

    /**
     * The switch output ports from {@code srcHost} to {@code dstHost}, in order; empty for the same host.
     *
     * @throws RouteUnavailableException when a discovered fabric has no route yet but may have one later
     */
    List<PortId> path(String srcHost, String dstHost);

    /**
     * True for an address no host owns now but one may own later: a discovered fabric's configured address whose
     * host the subnet manager has not given a LID yet. Connections to or from it wait for their route instead of
     * being refused. Static topologies: false (an address no host owns is a mistake).
     */
    default boolean mayResolveLater(String ip) {
        return false;
    }

    /**
     * The capacity of a port a path may cross (a switch output port, or a host's NIC egress), Gbit/s; empty where
     * this resolver does not know it (a discovered fabric reports none yet). The online estimate reads a unit's
     * network time from its bytes over this rate; without it, from the engine's wait counter.
     */
    default OptionalDouble capacityGbps(PortId port) {
        return OptionalDouble.empty();
    }

    /** Queues of a switch output port. */
    int queues(PortId port);

    /** The smallest queue count of any switch output port (bounds the level hierarchy). */
    int minQueues();

    /**
     * Registers a callback run after the paths changed (a link went down, the subnet manager re-routed); the
     * controller then re-resolves every open connection. Static topologies never call it.
     */
    default void onPathsChanged(Runnable listener) {
    }
}
