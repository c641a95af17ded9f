package io.saba.controller.grpc;

import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerBuilder;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the gRPC server's lifecycle: a bounded executor (a flood of calls queues, then is refused, instead of
 * growing threads), authentication, the optional health service, and shutdown → awaitTermination → shutdownNow.
 * {@link #start} binds the socket and {@link #open} lets calls in: in between (while the controller replays its
 * journal and first pushes to the fabric) calls are answered UNAVAILABLE, which clients retry, and the health
 * service says NOT_SERVING. Binding first means a port in use stops a controller before it has read or pushed
 * anything.
 * Where and how it listens is the {@link ServerBuilder} it is given: {@link #netty} in production (a socket,
 * optional TLS), an in-process builder in tests.
 *
 * <p>With {@code threads = 0} calls run directly on the transport's event-loop threads instead: every handler
 * only takes the state lock for microseconds and never does I/O except the journal's buffered append, so the
 * hand-off to a pool (two thread wake-ups per call) is pure cost, and on a loaded machine each wake-up can wait
 * a scheduler slice. The benchmark measures both.
 */
public final class ControllerServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerServer.class);

    static final int MAX_CALLS_PER_CONNECTION = 512;
    private final Server server;
    private final ThreadPoolExecutor executor;
    private final GrpcHealth health;
    private volatile boolean open;

    /**
     * A Netty server on a socket. HTTP/2 flow control is the back-pressure: a client past
     * {@value #MAX_CALLS_PER_CONNECTION} calls in flight on one connection waits for a stream instead of flooding the
     * executor's queue (which would fail calls with INTERNAL).
     *
     * @param tlsCert PEM certificate chain, or null for plaintext
     * @param tlsKey  PEM PKCS#8 private key, or null
     */
    public static NettyServerBuilder netty(InetSocketAddress listen, Path tlsCert, Path tlsKey) {
        return NettyServerBuilder.forAddress(listen, credentials(tlsCert, tlsKey))
                .maxConcurrentCallsPerConnection(MAX_CALLS_PER_CONNECTION);
    }

    /**
     * @param builder where and how to listen ({@link #netty}, or an in-process builder)
     * @param threads the executor's threads; 0 runs calls on the transport's threads
     * @param health  the standard health service, or null for none
     */
    public ControllerServer(ServerBuilder<?> builder, ControllerService service, AuthInterceptor auth, int threads,
                            GrpcHealth health) {
        this(builder, service, auth, threads, health, java.util.List.of());
    }

    /**
     * @param extra further services (a backend's, see {@link GrpcServing}), behind the same start gate; they
     *              authenticate their callers themselves
     */
    public ControllerServer(ServerBuilder<?> builder, ControllerService service, AuthInterceptor auth, int threads,
                            GrpcHealth health, java.util.List<io.grpc.ServerServiceDefinition> extra) {
        AtomicInteger n = new AtomicInteger();
        this.health = health;
        this.executor = threads <= 0 ? null : new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(65_536), r -> {
                    Thread t = new Thread(r, "saba-grpc-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        if (executor == null) {
            builder.directExecutor();
        } else {
            builder.executor(executor);
        }
        builder.maxInboundMessageSize(64 << 20)
                .addService(ServerInterceptors.intercept(service, auth, new StartingGate()));
        for (io.grpc.ServerServiceDefinition s : extra) {
            builder.addService(ServerInterceptors.intercept(s, new StartingGate()));
        }
        if (health != null) {
            builder.addService(health.service()); // no token: probes ask without one
        }
        this.server = builder.build();
    }

    private static ServerCredentials credentials(Path cert, Path key) {
        if (cert == null) {
            return InsecureServerCredentials.create();
        }
        try {
            return TlsServerCredentials.create(cert.toFile(), key.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read TLS certificate " + cert + " or key " + key + ": "
                    + e.getMessage(), e);
        }
    }

    /** Binds; calls are refused until {@link #open}. */
    public ControllerServer start() {
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Lets calls in (the controller behind is started). */
    public void open() {
        open = true;
        if (health != null) {
            health.serving();
        }
        LOG.info("Saba controller listening on {}", address());
    }

    /** Answers UNAVAILABLE (which clients retry) until the controller is open. */
    private final class StartingGate implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                            ServerCallHandler<Q, R> next) {
            if (open) {
                return next.startCall(call, headers);
            }
            call.close(Status.UNAVAILABLE.withDescription("the controller is starting (restoring its journal)"),
                    new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
    }

    /** The bound address (the real port when 0 was asked for; an in-process name in tests). */
    public SocketAddress address() {
        return server.getListenSockets().get(0);
    }

    @Override
    public void close() {
        if (health != null) {
            health.stopping();
        }
        server.shutdown();
        try {
            if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                server.shutdownNow();
                server.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
