package io.saba.controller.topology;

import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Optional;

/**
 * Where a connection's bytes go: endpoint address → host, host pair → the switch output ports crossed. This issue
 * ships a static topology (file or shape); InfiniBand discovery and the Linux testbed implement it later.
 */
public interface PathResolver {
    /** The topology host owning a literal IP address (normalised, as {@code InetAddress#getHostAddress} prints it). */
    Optional<String> hostOf(String ip);

    /** The switch output ports from {@code srcHost} to {@code dstHost}, in order; empty for the same host. */
    List<PortId> path(String srcHost, String dstHost);

    /** Queues of a switch output port. */
    int queues(PortId port);
}
