package io.saba.controller.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Token authentication: each tenant has a bearer token; the caller's tenant is put in the call's context. With no
 * tokens configured every caller is tenant "" (one trust domain). Tokens are compared in constant time.
 */
public final class AuthInterceptor implements ServerInterceptor {
    static final Context.Key<String> TENANT = Context.key("saba-tenant");
    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final Map<String, String> tokenOfTenant;

    /** @param tokenOfTenant tenant → token; empty disables authentication */
    public AuthInterceptor(Map<String, String> tokenOfTenant) {
        this.tokenOfTenant = Map.copyOf(tokenOfTenant);
    }

    /** The authenticated tenant of the current call. */
    static String tenant() {
        String t = TENANT.get();
        return t == null ? "" : t;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                        ServerCallHandler<Q, R> next) {
        if (tokenOfTenant.isEmpty()) {
            return next.startCall(call, headers);
        }
        String auth = headers.get(AUTHORIZATION);
        if (auth == null || !auth.startsWith("Bearer ")) {
            call.close(Status.UNAUTHENTICATED.withDescription(
                    "missing 'authorization: Bearer <token>' header; this controller requires a tenant token"),
                    new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        String tenant = tenantOf(auth.substring("Bearer ".length()).trim());
        if (tenant == null) {
            call.close(Status.UNAUTHENTICATED.withDescription("the bearer token matches no tenant"), new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        return Contexts.interceptCall(Context.current().withValue(TENANT, tenant), call, headers, next);
    }

    private String tenantOf(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, String> e : tokenOfTenant.entrySet()) {
            // check every entry so timing does not reveal which tenant matched
            if (MessageDigest.isEqual(given, e.getValue().getBytes(StandardCharsets.UTF_8))) {
                found = e.getKey();
            }
        }
        return found;
    }
}
