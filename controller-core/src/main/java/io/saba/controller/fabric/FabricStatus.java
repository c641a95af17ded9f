package io.saba.controller.fabric;

import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fabric as the status pages show it: the backend's name, the last push and its result (null before the
 * first), the ports being retried after failed pushes, the ports found drifted (port → what differs), and how
 * the backend looks for drift (null when it does not read ports back: the dry run, Linux traffic control), and the
 * host agents it sends plans to (empty unless the backend is {@code agents}).
 */
public record FabricStatus(String backend, PushOutcome lastPush, Map<PortId, PortRetry> retrying,
                           Map<PortId, String> drift, DriftCheck driftCheck, List<AgentStatus> agents) {
    public FabricStatus {
        retrying = new TreeMap<>(retrying);
        drift = new TreeMap<>(drift);
        agents = List.copyOf(agents);
    }

    /** A fabric without host agents. */
    public FabricStatus(String backend, PushOutcome lastPush, Map<PortId, PortRetry> retrying,
                        Map<PortId, String> drift, DriftCheck driftCheck) {
        this(backend, lastPush, retrying, drift, driftCheck, List.of());
    }

    /**
     * Only what concerns these ports (a tenant's view): the last push's counts stay (they name nobody), its
     * failures, the retries and the drift are narrowed to the ports, the agents to those ports' hosts.
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
        Set<String> hosts = new java.util.HashSet<>();
        ports.forEach(p -> hosts.add(p.node()));
        return new FabricStatus(backend, push, r, d, driftCheck,
                agents.stream().filter(a -> hosts.contains(a.host())).toList());
    }
}
