package io.saba.controller.fabric;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * Programs the fabric: one implementation per kind of fabric (dry run, Linux traffic control, InfiniBand VL
 * arbitration). The controller calls it with only the ports whose configuration changed.
 *
 * <p>Contract: {@link #apply} is idempotent (the same configuration twice changes nothing on the device); a port
 * whose update fails keeps its previous configuration and is reported in the result, never thrown for; ports not
 * named are left alone; {@link #close} removes what the backend installed.
 *
 * <p>After a crash ({@code close} never ran) a backend that changes devices must still be able to put them back:
 * it keeps each port's original configuration in {@link PortOriginals} before its first write there, reads it
 * from there (not from the device) when it adopts a port again, and {@link #restoreLeftovers} puts back every port
 * a crashed controller left, for {@code saba fabric restore}.
 */
public interface FabricBackend extends AutoCloseable {
    /** Short name used in configuration and logs, e.g. "dry-run", "linux", "infiniband". */
    String name();

    /** Pushes the given ports' configurations. */
    ApplyResult apply(Collection<PortAllocation> changed);

    /** Returns the given ports to their default (no Saba) configuration. */
    ApplyResult release(Set<PortId> ports);

    /**
     * Ports whose device, when last read back, held something other than what this backend wrote (another agent,
     * e.g. a subnet manager, rewrote it), each with what differs; the controller shows them on its status. Backends
     * that do not read back report none.
     */
    default Map<PortId, String> drift() {
        return Map.of();
    }

    /**
     * The bytes each of Saba's queues on a port has sent since this backend created it (queue index → bytes, as
     * {@link PortAllocation#queueOfLevel} numbers queues), read from the device now; empty where the backend cannot
     * count (the default) or does not manage the port. The online estimate reads an application's bytes from them
     * where it is alone in its queue: they include what the engine's metrics miss (Spark's broadcasts, cached blocks
     * read remotely, headers). Called off the allocation loop, about once a second per port in use; must not throw
     * for a port that is gone (empty).
     */
    default Map<Integer, Long> queueBytes(PortId port) {
        return Map.of();
    }

    /** Whether {@link #queueBytes} can say anything (the controller samples it only then). */
    default boolean countsQueueBytes() {
        return false;
    }

    /**
     * The host agents this backend sends plans to, one per host that announced itself or has a plan (sorted by
     * host); empty for backends that program devices themselves.
     */
    default java.util.List<AgentStatus> agents() {
        return java.util.List.of();
    }

    /**
     * A controller group narrows what this controller programs ({@code Recomputer.ownership}): the backend is told
     * which nodes this member holds, before any push under that ownership. Backends that only program the ports they
     * are handed ignore it; one that serves per-host agents serves a host's agent only while it programs the host.
     */
    default void ownership(NodeOwnership nodes) {
    }

    /**
     * Ownership narrowed and took effect: no push is in flight and none will touch a node no longer held here
     * ({@code Recomputer.fence}). Called before another member may take those nodes, so a backend serving agents ends
     * the sessions of the hosts it lost here (their agents then move on to the member that takes them over).
     */
    default void fenced() {
    }

    /**
     * Ports whose configuration another controller (or nobody) last set, about to be pushed whole from this
     * controller's state ({@code Recomputer.retake}): a backend serving agents waits for that push before it sends
     * such a host's plan, so an agent never receives the plan this member held before it lost the host.
     */
    default void retaken(Set<PortId> ports) {
    }

    /** How this backend looks for {@link #drift()}, for the status pages; null (the default) when it does not. */
    default DriftCheck driftCheck() {
        return null;
    }

    /**
     * Where to keep ports' originals (called before the first push; the default store is in memory). Backends that
     * change nothing on a device ignore it.
     */
    default void keepOriginalsIn(PortOriginals originals) {
    }

    /**
     * {@code saba fabric status}: the ports that hold something of Saba's while no controller manages them, or that
     * have a saved original, each with what it holds. Empty: nothing of Saba's found.
     */
    default Map<PortId, String> leftovers() {
        return Map.of();
    }

    /**
     * {@code saba fabric restore}: puts every port Saba left configured back to its saved original (or, where the
     * backend can recognise its own configuration without one, removes that).
     */
    default ApplyResult restoreLeftovers() {
        return new ApplyResult(Set.of(), Map.of());
    }

    @Override
    void close();
}
