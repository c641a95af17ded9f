package io.saba.agents.controller;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switch ports beside the agents' host ports: handed to the configured backend (e.g. {@code linux} for a
 * software switch, {@code infiniband}), or, without one, accepted and left unenforced (said once in the log).
 */
final class SwitchPorts implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SwitchPorts.class);

    private final FabricBackend backend;
    private boolean warned;

    SwitchPorts(FabricBackend backend) {
        this.backend = backend;
    }

    ApplyResult apply(Collection<PortAllocation> ports) {
        if (ports.isEmpty()) {
            return new ApplyResult(Set.of(), Map.of());
        }
        if (backend != null) {
            return backend.apply(ports);
        }
        if (!warned) {
            warned = true;
            LOG.info("switch ports (e.g. {}) are not enforced: only the hosts' agents are (set backend-options."
                    + "switches to enforce them too)", ports.iterator().next().port());
        }
        Set<PortId> ids = new HashSet<>();
        ports.forEach(p -> ids.add(p.port()));
        return new ApplyResult(ids, Map.of());
    }

    ApplyResult release(Set<PortId> ports) {
        return ports.isEmpty() || backend == null ? new ApplyResult(ports, Map.of()) : backend.release(ports);
    }

    Map<Integer, Long> queueBytes(PortId port) {
        return backend == null || !backend.countsQueueBytes() ? Map.of() : backend.queueBytes(port);
    }

    Map<PortId, String> drift() {
        return backend == null ? Map.of() : backend.drift();
    }

    DriftCheck driftCheck() {
        return backend == null ? null : backend.driftCheck();
    }

    void keepOriginalsIn(PortOriginals originals) {
        if (backend != null) {
            backend.keepOriginalsIn(originals);
        }
    }

    Map<PortId, String> leftovers() {
        return backend == null ? Map.of() : backend.leftovers();
    }

    ApplyResult restoreLeftovers() {
        return backend == null ? new ApplyResult(Set.of(), Map.of()) : backend.restoreLeftovers();
    }

    static ApplyResult merge(ApplyResult a, ApplyResult b) {
        Set<PortId> applied = new HashSet<>(a.applied());
        applied.addAll(b.applied());
        Map<PortId, String> failed = new HashMap<>(a.failed());
        failed.putAll(b.failed());
        return new ApplyResult(applied, failed);
    }

    @Override
    public void close() {
        if (backend != null) {
            backend.close();
        }
    }
}
