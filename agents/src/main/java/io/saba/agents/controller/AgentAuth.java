package io.saba.agents.controller;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.saba.controller.grpc.GrpcServing;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who may call the Agents service: with agent tokens configured, a caller whose bearer token is one host's agent
 * token, bound to that host for the call ({@link #host()}); a tenant's token is refused (PERMISSION_DENIED), as is
 * any other (UNAUTHENTICATED). Without agent tokens, agents may call only while the controller authenticates no
 * one (no tenant tokens either), and then for any host.
 */
final class AgentAuth implements ServerInterceptor {
    private static final Context.Key<String> HOST = Context.key("saba-agent-host");
    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final GrpcServing.Access access;

    AgentAuth(GrpcServing.Access access) {
        this.access = access;
    }

    /** The host the current call's token is bound to, or null when agents are not authenticated. */
    static String host() {
        return HOST.get();
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                        ServerCallHandler<Q, R> next) {
        Map<String, String> tokens = access.agentTokens();
        if (tokens.isEmpty() && !access.tenants().authenticating()) {
            return next.startCall(call, headers);
        }
        String auth = headers.get(AUTHORIZATION);
        String token = auth != null && auth.startsWith("Bearer ") ? auth.substring("Bearer ".length()).trim() : null;
        if (token != null) {
            String host = hostOf(tokens, token);
            if (host != null) {
                return Contexts.interceptCall(Context.current().withValue(HOST, host), call, headers, next);
            }
            if (access.tenants().tenantOf(token).isPresent()) {
                return refuse(call, Status.PERMISSION_DENIED, "a tenant's token cannot act as a host agent");
            }
        }
        if (tokens.isEmpty()) {
            return refuse(call, Status.UNAUTHENTICATED, "this controller has tenant tokens but no agent-tokens, so "
                    + "no agent may connect");
        }
        return refuse(call, Status.UNAUTHENTICATED, token == null ? "missing 'authorization: Bearer <token>' header; "
                + "this controller requires an agent token" : "the bearer token matches no agent");
    }

    /** Compared in constant time against every token, so timing does not reveal which host matched. */
    private static String hostOf(Map<String, String> tokens, String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, String> e : tokens.entrySet()) {
            if (MessageDigest.isEqual(given, e.getValue().getBytes(StandardCharsets.UTF_8))) {
                found = e.getKey();
            }
        }
        return found;
    }

    private <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, Status status, String why) {
        access.onRefusal().run();
        call.close(status.withDescription(why), new Metadata());
        return new ServerCall.Listener<>() {
        };
    }
}
