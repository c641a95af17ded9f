package io.saba.controller;

import io.saba.controller.alloc.AllocationEngine;
import io.saba.controller.alloc.CoreAllocationEngine;
import io.saba.controller.alloc.CorunWeighting;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.grpc.AuthInterceptor;
import io.saba.controller.grpc.ControllerServer;
import io.saba.controller.grpc.ControllerService;
import io.saba.controller.http.StatusHttpServer;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.table.ModelCatalog;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.solve.Eq2Solver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A whole controller in one object: state, journal, gRPC server, optional status page. Used in-process (a driver,
 * a JobManager, a test: ephemeral port, {@link #start()} returns the address) and by the standalone daemon, which
 * builds one from its configuration file.
 *
 * <pre>{@code
 * try (EmbeddedController c = EmbeddedController.builder()
 *         .topology(TopologyLoader.fromNode(...)).table(catalog).build()) {
 *     InetSocketAddress at = c.start();
 *     ...
 * }
 * }</pre>
 */
public final class EmbeddedController implements AutoCloseable {
    private final Builder b;
    private SabaController controller;
    private ControllerServer server;
    private ControllerService service;
    private StatusHttpServer http;
    private ControllerApi api;

    private EmbeddedController(Builder b) {
        this.b = b;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts everything; returns the gRPC address (the real port when port 0 was asked for). */
    public InetSocketAddress start() {
        Metrics metrics = new Metrics();
        Journal journal = b.journalDir == null ? null : new Journal(b.journalDir, b.fsync, b.fsyncMillis);
        AllocationEngine engine = b.engine != null ? b.engine : engine();
        // a group member's replica starts empty and takes the table the group's log carries
        controller = new SabaController(b.topology, engine, b.group == null ? b.table : ModelCatalog.empty(),
                b.backend, b.journalDir, journal, json -> ModelCatalog.parse(json, "reloaded table"), b.leaseTimeout,
                metrics, b.roundInterval);
        if (b.group == null) {
            api = controller.start();
        } else {
            api = b.group.join(controller.startAsReplica(), b.table);
        }
        service = new ControllerService(api, !b.tokens.isEmpty(), b.adminTenants, this::configuredTable);
        server = new ControllerServer(b.listen, service, new AuthInterceptor(b.tokens), b.tlsCert, b.tlsKey,
                b.grpcThreads).start();
        if (b.http != null) {
            http = new StatusHttpServer(b.http, api).start();
        }
        return server.address();
    }

    /**
     * Eq. 2 per port, or with {@code allocation: corun} the co-run predictor's weights where the table has traffic
     * records for every application on a port (read from the table in force at each decision).
     */
    private AllocationEngine engine() {
        Allocator allocator = new Allocator(new Eq2Solver(), b.levels, b.cSaba);
        if (b.allocation == Allocation.EQ2) {
            return new CoreAllocationEngine(allocator, b.topology.minQueues());
        }
        CorunWeighting corun = new CorunWeighting(w -> controller.catalog().profileOf(w), b.cSaba,
                Eq2Solver.DEFAULT_FLOOR, b.corunMargin);
        return new CoreAllocationEngine(allocator, b.topology.minQueues(), corun);
    }

    /** How a port's weights are chosen. */
    public enum Allocation {
        /** Eq. 2 on the table's static slowdown curves (the paper's method). */
        EQ2,
        /** The co-run predictor on the table's traffic records, guarded by the do-no-harm rule. */
        CORUN
    }

    private String configuredTable() {
        if (b.tableFile == null) {
            throw new IllegalArgumentException("no table_json given and no table file configured");
        }
        try {
            return Files.readString(b.tableFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the configured table " + b.tableFile, e);
        }
    }

    /** "host:port" for {@code ClientConfig.defaults}. */
    public String target() {
        InetSocketAddress a = server.address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public InetSocketAddress address() {
        return server.address();
    }

    /** The status page's address, or null when disabled. */
    public InetSocketAddress httpAddress() {
        return http == null ? null : http.address();
    }

    public SabaController controller() {
        return controller;
    }

    /** What the transports call: the controller, or the group member in front of it. */
    public ControllerApi api() {
        return api;
    }

    public FabricBackend backend() {
        return b.backend;
    }

    /** Stops serving, then closes state, journal and backend (in that order, so no request sees a closed journal). */
    @Override
    public void close() {
        if (http != null) {
            http.close();
        }
        if (service != null) {
            service.closeWatches();
        }
        if (server != null) {
            server.close();
        }
        if (b.group != null) {
            b.group.close();
        }
        if (controller != null) {
            controller.close();
        }
        if (b.closeBackend) {
            b.backend.close();
        }
        if (b.topology instanceof AutoCloseable resolver) {
            try {
                resolver.close(); // a discovered fabric's refresh timer
            } catch (Exception e) {
                throw new IllegalStateException("closing the path resolver failed", e);
            }
        }
    }

    /** Settings with the defaults of an embedded controller: loopback, ephemeral port, memory only, dry-run. */
    public static final class Builder {
        private InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 0);
        private InetSocketAddress http;
        private PathResolver topology;
        private AllocationEngine engine;
        private ModelCatalog table = ModelCatalog.empty();
        private Path tableFile;
        private double cSaba = 0.9;
        private int levels = LevelAssigner.ETHERNET_LEVELS;
        private FabricBackend backend;
        private boolean closeBackend = true;
        private Path journalDir;
        private FsyncPolicy fsync = FsyncPolicy.INTERVAL;
        private long fsyncMillis = 20;
        private Duration leaseTimeout = Duration.ofSeconds(30);
        private Path tlsCert;
        private Path tlsKey;
        private Map<String, String> tokens = Map.of();
        private Set<String> adminTenants = Set.of();
        private int grpcThreads = -1;
        private Duration roundInterval = Duration.ofMillis(5);
        private Allocation allocation = Allocation.EQ2;
        private double corunMargin = 0.03;
        private String cluster;
        private GroupMembership group;

        /** The configuration's {@code cluster} key, kept for whoever can join such a group (the CLI); null if none. */
        public Builder cluster(String uri) {
            cluster = uri;
            return this;
        }

        public String cluster() {
            return cluster;
        }

        /** Runs as a member of a controller group instead of alone (see {@link GroupMembership}). */
        public Builder group(GroupMembership g) {
            group = g;
            return this;
        }

        /** The static topology, or null when paths come from discovery ({@link #paths}). */
        public TopologyResolver topology() {
            return topology instanceof TopologyResolver t ? t : null;
        }

        /** Least time between recomputation rounds (default 5 ms); see {@code Recomputer}. */
        public Builder recomputeInterval(Duration d) {
            roundInterval = d;
            return this;
        }

        public Builder listen(InetSocketAddress a) {
            listen = a;
            return this;
        }

        public Builder http(InetSocketAddress a) {
            http = a;
            return this;
        }

        public Builder topology(TopologyResolver t) {
            topology = t;
            return this;
        }

        /** Paths from any resolver, e.g. a discovered InfiniBand subnet. */
        public Builder paths(PathResolver r) {
            topology = r;
            return this;
        }

        /** Replaces core's allocator (tests that need a deterministic toy engine); rarely needed. */
        public Builder engine(AllocationEngine e) {
            engine = e;
            return this;
        }

        public Builder table(ModelCatalog t) {
            table = t;
            return this;
        }

        /** The table file a ReloadTable without inline JSON rereads. */
        public Builder tableFile(Path f) {
            tableFile = f;
            return this;
        }

        /** How ports' weights are chosen (default {@link Allocation#EQ2}). */
        public Builder allocation(Allocation a) {
            allocation = a;
            return this;
        }

        /** The relative predicted gain a co-run plan needs over the equal split and the port's current weights. */
        public Builder corunMargin(double m) {
            corunMargin = m;
            return this;
        }

        public Builder cSaba(double c) {
            cSaba = c;
            return this;
        }

        public Builder levels(int l) {
            levels = l;
            return this;
        }

        /** The backend; the controller closes it on {@link #close()} unless {@code owned} is false. */
        public Builder backend(FabricBackend f, boolean owned) {
            backend = f;
            closeBackend = owned;
            return this;
        }

        public Builder journal(Path dir, FsyncPolicy policy, long fsyncIntervalMillis) {
            journalDir = dir;
            fsync = policy;
            fsyncMillis = fsyncIntervalMillis;
            return this;
        }

        public Builder leaseTimeout(Duration d) {
            leaseTimeout = d;
            return this;
        }

        public Builder tls(Path certPem, Path keyPem) {
            tlsCert = certPem;
            tlsKey = keyPem;
            return this;
        }

        /** tenant → bearer token; empty turns authentication off. */
        public Builder tokens(Map<String, String> t) {
            tokens = Map.copyOf(t);
            return this;
        }

        public Builder adminTenants(Set<String> a) {
            adminTenants = Set.copyOf(a);
            return this;
        }

        public Builder grpcThreads(int n) {
            grpcThreads = n;
            return this;
        }

        public EmbeddedController build() {
            Objects.requireNonNull(topology, "a controller needs a topology");
            if (backend == null) {
                backend = new DryRunBackend(true, 10_000);
            }
            if (cSaba <= 0 || cSaba > 1) {
                throw new IllegalArgumentException("c-saba must be in (0, 1], got " + cSaba);
            }
            if (grpcThreads < 0) {
                // a group member's calls wait for the shared log (milliseconds, no CPU): more threads let more
                // calls share one log entry
                grpcThreads = group != null ? 64 : Math.max(2, Runtime.getRuntime().availableProcessors());
            }
            if (group != null && journalDir != null) {
                throw new IllegalArgumentException("journal-dir and cluster exclude each other: a controller group's "
                        + "record is its shared log in ZooKeeper");
            }
            if (leaseTimeout.isNegative() || leaseTimeout.isZero()) {
                throw new IllegalArgumentException("lease timeout must be positive, got " + leaseTimeout);
            }
            return new EmbeddedController(this);
        }
    }
}
