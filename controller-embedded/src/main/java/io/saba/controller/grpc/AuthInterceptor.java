package io.saba.controller.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.saba.controller.Tenants;
import java.util.Optional;

/**
 * Token authentication: each tenant has a bearer token ({@link Tenants}); the caller's tenant is put in the call's
 * context. With no tokens configured every caller is tenant "" (one trust domain). A refused call is counted
 * ({@code onRefusal}) with the controller's other refusals.
 */
public final class AuthInterceptor implements ServerInterceptor {
    static final Context.Key<String> TENANT = Context.key("saba-tenant");
    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    private final Tenants tenants;
    private final Runnable onRefusal;

    /** @param onRefusal told of each call refused for a missing or unknown token */
    public AuthInterceptor(Tenants tenants, Runnable onRefusal) {
        this.tenants = tenants;
        this.onRefusal = onRefusal;
    }

    /** The authenticated tenant of the current call. */
    static String tenant() {
        String t = TENANT.get();
        return t == null ? Tenants.NONE : t;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                        ServerCallHandler<Q, R> next) {
        if (!tenants.authenticating()) {
            return next.startCall(call, headers);
        }
        String auth = headers.get(AUTHORIZATION);
        if (auth == null || !auth.startsWith("Bearer ")) {
            return refuse(call, "missing 'authorization: Bearer <token>' header; this controller requires a tenant "
                    + "token");
        }
        Optional<String> tenant = tenants.tenantOf(auth.substring("Bearer ".length()).trim());
        if (tenant.isEmpty()) {
            return refuse(call, "the bearer token matches no tenant");
        }
        return Contexts.interceptCall(Context.current().withValue(TENANT, tenant.get()), call, headers, next);
    }

    private <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, String why) {
        onRefusal.run();
        call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
        return new ServerCall.Listener<>() {
        };
    }
}
