package io.saba.controller.fabric;

import io.saba.core.alloc.PortId;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fabric as the status pages show it: the backend's name, the last push and its result (null before the
 * first), the ports being retried after failed pushes, the ports found drifted (port → what differs), and how
 * the backend looks for drift (null when it does not read ports back: the dry run, Linux traffic control).
 */
public record FabricStatus(String backend, PushOutcome lastPush, Map<PortId, PortRetry> retrying,
                           Map<PortId, String> drift, DriftCheck driftCheck) {
    public FabricStatus {
        retrying = new TreeMap<>(retrying);
        drift = new TreeMap<>(drift);
    }

    /**
     * Only what concerns these ports (a tenant's view): the last push's counts stay (they name nobody), its
     * failures, the retries and the drift are narrowed to the ports.
     */
    public FabricStatus onlyPorts(Set<PortId> ports) {
        PushOutcome push = lastPush;
        if (push != null) {
            Map<PortId, String> failed = new TreeMap<>(push.failed());
            failed.keySet().retainAll(ports);
            push = new PushOutcome(push.at(), push.version(), push.configured(), push.released(), failed);
        }
        Map<PortId, PortRetry> r = new TreeMap<>(retrying);
        r.keySet().retainAll(ports);
        Map<PortId, String> d = new TreeMap<>(drift);
        d.keySet().retainAll(ports);
        return new FabricStatus(backend, push, r, d, driftCheck);
    }
}
