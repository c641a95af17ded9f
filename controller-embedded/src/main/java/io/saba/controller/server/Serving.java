package io.saba.controller.server;

import io.saba.controller.ControllerApi;
import io.saba.controller.Metrics;
import io.saba.controller.StartupException;
import io.saba.controller.Tenants;
import io.saba.controller.grpc.AuthInterceptor;
import io.saba.controller.grpc.ControllerServer;
import io.saba.controller.grpc.ControllerService;
import io.saba.controller.grpc.GrpcHealth;
import io.saba.controller.grpc.GrpcServing;
import io.saba.controller.http.StatusHttpServer;
import io.saba.controller.topology.AgentTopology;
import io.saba.controller.topology.TopologyResolver;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an embedded controller is reached: its gRPC service (with the backend's own services, {@link GrpcServing})
 * and its optional status page. The sockets are bound before the controller restores anything ({@link #listen}),
 * calls are let in last ({@link #open}), and serving stops before the state it serves is closed ({@link #close}).
 */
final class Serving {
    /** The embedded controller's logger: these lines are its own, and log configurations select them by its name. */
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedController.class);
    private final Settings s;
    private ControllerService service;
    private ControllerServer server;
    private StatusHttpServer http;

    Serving(Settings s) {
        this.s = s;
    }

    /**
     * Binds the gRPC socket (and the status page's, when configured); no call is served before {@link #open}.
     *
     * @throws StartupException when an address is in use or cannot be listened on
     */
    void listen(ControllerApi api, Tenants tenants, Metrics metrics) {
        service = new ControllerService(api, tenants, () -> TableInForce.configured(s.tableFile));
        try {
            List<io.grpc.ServerServiceDefinition> extra = s.backend instanceof GrpcServing serving
                    ? serving.grpcServices(new GrpcServing.Access(tenants, s.agentTokens,
                    metrics.requestsRejected::increment, metrics,
                    s.topology instanceof TopologyResolver t ? t.topology().hosts() : Set.of(),
                    s.topology::capacityGbps, s.topology instanceof AgentTopology a ? a : null)) : List.of();
            server = new ControllerServer(ControllerServer.netty(s.listen, s.tlsCert, s.tlsKey), service,
                    new AuthInterceptor(tenants, metrics.requestsRejected::increment), s.grpcThreads,
                    s.health ? new GrpcHealth() : null, extra).start();
        } catch (UncheckedIOException e) {
            throw cannotListen("gRPC", s.listen, e);
        }
        if (s.http != null) {
            try {
                http = new StatusHttpServer(s.http, api, tenants);
            } catch (UncheckedIOException e) {
                throw cannotListen("HTTP", s.http, e);
            }
        }
    }

    /** Lets calls in: the status page first (saying where it is and who may read it), then gRPC. */
    void open(Tenants tenants) {
        if (http != null) {
            http.grpcAddress(address().getHostString() + ":" + address().getPort());
            http.start();
            if (tenants.authenticating() || http.address().getAddress().isLoopbackAddress()) {
                LOG.info("status pages and /metrics on http://{}:{}: {}", http.address().getHostString(),
                        http.address().getPort(), http.access());
            } else {
                LOG.warn("status pages and /metrics on http://{}:{} are {}: they list every tenant's applications; "
                        + "configure tokens or bind http to 127.0.0.1", http.address().getHostString(),
                        http.address().getPort(), http.access());
            }
        }
        server.open();
    }

    /** One line naming the address and why; "in use" said plainly, as operators search for it. */
    private static StartupException cannotListen(String what, InetSocketAddress at, Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String where = at.getHostString() + ":" + at.getPort();
        String why = String.valueOf(root.getMessage());
        if (root instanceof java.net.BindException || why.contains("in use")) {
            return new StartupException(what + " address " + where + " is in use (another controller or another "
                    + "program listens there)", e);
        }
        return new StartupException("cannot listen for " + what + " on " + where + ": " + why, e);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.address(); // always a socket: listen() binds with Netty
    }

    /** The status page's address, or null when disabled. */
    InetSocketAddress httpAddress() {
        return http == null ? null : http.address();
    }

    /** Stops the status page, the watches, the backend's services and the gRPC server, whatever was started. */
    void close() {
        if (http != null) {
            http.close();
        }
        if (service != null) {
            service.closeWatches();
        }
        if (s.backend instanceof GrpcServing serving) {
            serving.stopServing();
        }
        if (server != null) {
            server.close();
        }
    }
}
