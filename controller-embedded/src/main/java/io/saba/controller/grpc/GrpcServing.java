package io.saba.controller.grpc;

import io.grpc.ServerServiceDefinition;
import io.saba.controller.Metrics;
import io.saba.controller.Tenants;
import io.saba.controller.topology.AgentTopology;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;

/**
 * A fabric backend that serves gRPC services of its own on the controller's gRPC server, beside the Controller
 * service (the agents backend's Agents service): the controller asks the backend it was built with for them before
 * it binds, and serves them behind the same start gate. They authenticate their callers themselves, from
 * {@link Access}.
 */
public interface GrpcServing {
    /** The services to add; each checks its callers against {@code access}. */
    List<ServerServiceDefinition> grpcServices(Access access);

    /** Ends the services' open streams (the controller is stopping; called before its server shuts down). */
    default void stopServing() {
    }

    /**
     * Who may call: the tenants (whose tokens are the applications', not an agent's), the agent tokens (host →
     * token, the {@code agent-tokens} key; empty: none configured), what counts a refused call, the controller's
     * metrics (where the services add their own gauges), the topology's hosts (empty when paths are discovered),
     * which tell a host's ports from a switch's, and each port's capacity in Gbit/s as the topology gives it (empty
     * where unknown), which the weights are fractions of; and the topology the agents' announcements build
     * ({@code topology: {from-agents: ...}}), or null when the topology is given (its hosts are then in that
     * topology, not in {@code hosts}).
     */
    record Access(Tenants tenants, Map<String, String> agentTokens, Runnable onRefusal, Metrics metrics,
                  Set<String> hosts, Function<PortId, OptionalDouble> capacityGbps, AgentTopology agentTopology) {
        public Access {
            agentTokens = Map.copyOf(agentTokens);
            hosts = Set.copyOf(hosts);
        }
    }
}
