package io.saba.controller.fabric;

/**
 * Which nodes of the fabric this controller programs now, and which controller is meant to: a controller group
 * splits its switches, and the hosts whose NICs it manages, among its members, and each member programs only the
 * nodes it holds. A backend that serves nodes' own agents (the host agents) reads it to serve a host's agent only on
 * the member that programs the host, and to send the agent elsewhere when the host moves.
 */
public interface NodeOwnership {
    /** Whether this controller programs the node's ports now. */
    boolean programs(String node);

    /**
     * The member meant to program the node, as this controller last computed the split; null when none is known (the
     * node is not split among the members, or no member is known, e.g. while cut off from the group's store).
     */
    String meantFor(String node);

    /** This controller's own id in its group. */
    String self();
}
