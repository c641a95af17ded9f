package io.saba.agents.controller;

import io.grpc.stub.ServerCallStreamObserver;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AgentNic;
import io.saba.proto.v1.HostPlan;
import io.saba.proto.v1.HostPortPlan;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What the controller knows of one host: the plan of its ports and its version, the agent's open plan stream, and
 * what the agent last acknowledged. Guarded by the {@link AgentsBackend} that owns it.
 */
final class HostRecord {
    final String host;
    /** port number → the allocation the host's agent must enforce there. */
    final Map<Integer, PortAllocation> plan = new TreeMap<>();
    long planVersion;
    /** The agent's open plan stream, or null when no agent is connected. */
    ServerCallStreamObserver<HostPlan> stream;
    long ackedVersion;
    /** port → why the agent refused it, as of {@link #ackedVersion}. */
    Map<Integer, String> refused = Map.of();
    /** port → queue index → bytes, as the agent last reported. */
    Map<Integer, Map<Integer, Long>> counters = Map.of();
    String drift = "";
    String lastError;
    /** Why the topology built from agents refused the host's last announcement, or null. */
    String announceRefusal;
    List<AgentNic> nics = List.of();
    /**
     * The host was taken over by this group member and is not pushed whole yet: its plan is not sent to its agent
     * until then (what is recorded here may be from before the member lost the host).
     */
    boolean awaitingPlan;

    HostRecord(String host) {
        this.host = host;
    }

    /** The whole plan of the host, as one message, each port with its rate in the topology ({@code capacityGbps}). */
    HostPlan message(Function<PortId, OptionalDouble> capacityGbps) {
        HostPlan.Builder b = HostPlan.newBuilder().setHost(host).setVersion(planVersion);
        plan.forEach((port, a) -> {
            HostPortPlan.Builder p = HostPortPlan.newBuilder().setPort(port);
            capacityGbps.apply(a.port()).ifPresent(gbps -> p.setLinkRateBps(Math.round(gbps * 1e9)));
            a.queueOfLevel().forEach(p::putQueueOfLevel);
            for (double w : a.queueWeights()) {
                p.addQueueWeights(w);
            }
            b.addPorts(p);
        });
        return b.build();
    }

    /**
     * Forgets the plan and what the agent said of it: another member holds the host now. The version counter stays,
     * so versions this member sends later are still above those it sent before.
     */
    void forget() {
        plan.clear();
        ackedVersion = 0;
        refused = Map.of();
        counters = Map.of();
        drift = "";
        lastError = null;
        awaitingPlan = true;
    }

    boolean connected() {
        return stream != null;
    }
}
