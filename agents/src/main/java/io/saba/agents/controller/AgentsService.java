package io.saba.agents.controller;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentWelcome;
import io.saba.proto.v1.AgentsGrpc;
import io.saba.proto.v1.HostPlan;
import io.saba.proto.v1.PlanAck;
import io.saba.proto.v1.PlanAckResponse;
import io.saba.proto.v1.WatchPlansRequest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Agents service on the controller's gRPC server: checks that each call's host is the one its token is bound
 * to (a refusal logged once per token host and claimed host), that this controller serves the host (in a group, the
 * member holding it: {@link AgentsBackend#notServed}), and hands the call to the {@link AgentsBackend}; with a
 * topology built from the agents, an announcement adds its host there first, so only a host whose agent holds its
 * token (when agent tokens are configured) ever joins.
 */
final class AgentsService extends AgentsGrpc.AgentsImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(AgentsService.class);

    private final AgentsBackend backend;
    private final Runnable onRefusal;
    private final Set<String> refusalsLogged = ConcurrentHashMap.newKeySet();

    AgentsService(AgentsBackend backend, Runnable onRefusal) {
        this.backend = backend;
        this.onRefusal = onRefusal;
    }

    @Override
    public void announce(AgentAnnounce req, StreamObserver<AgentWelcome> out) {
        if (claim(req.getHost(), out) && served(req.getHost(), out)) {
            Status refused = backend.learn(req.getHost(), req.getNicsList());
            if (refused != null) {
                out.onError(refused.asRuntimeException());
                return;
            }
            out.onNext(AgentWelcome.newBuilder().setVersion(backend.announced(req.getHost(), req.getNicsList()))
                    .build());
            out.onCompleted();
        }
    }

    @Override
    public void watchPlans(WatchPlansRequest req, StreamObserver<HostPlan> out) {
        if (claim(req.getHost(), out)) {
            backend.watch(req.getHost(), (ServerCallStreamObserver<HostPlan>) out);
        }
    }

    @Override
    public void ackPlan(PlanAck req, StreamObserver<PlanAckResponse> out) {
        if (claim(req.getHost(), out) && served(req.getHost(), out)) {
            out.onNext(PlanAckResponse.newBuilder().setVersion(backend.acked(req)).build());
            out.onCompleted();
        }
    }

    /**
     * Whether this controller serves {@code host}'s agent; if not (a group member that does not hold the host), the
     * call is answered with why, naming the member meant to hold it when known. Not counted as a refusal: the agent
     * is not at fault, it tries its next controller. (The plan stream checks again under the backend's lock.)
     */
    private boolean served(String host, StreamObserver<?> out) {
        Status why = backend.notServed(host);
        if (why == null) {
            return true;
        }
        out.onError(why.asRuntimeException());
        return false;
    }

    /** Whether the caller may act for {@code host}; if not, the call is answered with the refusal. */
    private boolean claim(String host, StreamObserver<?> out) {
        if (host.isBlank()) {
            out.onError(Status.INVALID_ARGUMENT.withDescription("an agent must name its host").asRuntimeException());
            return false;
        }
        String bound = AgentAuth.host();
        if (bound == null || bound.equals(host)) {
            return true;
        }
        if (refusalsLogged.add(bound + "\u0000" + host)) {
            LOG.warn("refused: the agent token of host {} claimed host {}", bound, host);
        }
        onRefusal.run();
        out.onError(Status.PERMISSION_DENIED.withDescription("the agent token of host " + bound
                + " cannot act for host " + host).asRuntimeException());
        return false;
    }
}
