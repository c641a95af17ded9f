package io.saba.controller.server;

import io.saba.controller.ControllerApi;
import io.saba.controller.GroupMembership;
import io.saba.controller.Metrics;
import io.saba.controller.SabaController;
import io.saba.controller.StartupException;
import io.saba.controller.Tenants;
import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.controller.grpc.AuthInterceptor;
import io.saba.controller.grpc.ControllerServer;
import io.saba.controller.grpc.ControllerService;
import io.saba.controller.grpc.GrpcHealth;
import io.saba.controller.grpc.GrpcServing;
import io.saba.controller.http.StatusHttpServer;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.StateLog;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EmbeddedController.class);
    private final Builder b;
    private SabaController controller;
    private ControllerServer server;
    private ControllerService service;
    private StatusHttpServer http;
    private ControllerApi api;
    private Journal journal;

    private EmbeddedController(Builder b) {
        this.b = b;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The controller a Spark driver or a Flink JobManager starts when no controller address is configured, started:
     * the one entry point the plugins call. With a configuration file it is the controller that file describes;
     * otherwise it listens on loopback (only its own driver or JobManager talks to it), keeps its state in memory and
     * uses the dry-run fabric, so it decides levels and port weights but programs nothing.
     *
     * @param config   a controller configuration (YAML, as {@code saba controller --config} reads), or null
     * @param topology a topology file, or null for {@link #thisMachine()} (ignored with a configuration)
     * @param table    a sensitivity table, or null: every workload gets the default model (ignored with a
     *                 configuration)
     * @throws IllegalArgumentException naming the file and the fault when a file is malformed
     */
    public static EmbeddedController inProcess(Path config, Path topology, Path table) throws IOException {
        EmbeddedController c;
        if (config != null) {
            c = ControllerConfig.load(config);
        } else {
            ModelCatalog catalog = table == null ? ModelCatalog.empty()
                    : ModelCatalog.parse(Files.readString(table), table.toString());
            c = builder().topology(topology == null ? thisMachine() : TopologyLoader.load(topology)).table(catalog)
                    .grpcThreads(2).build();
        }
        try {
            c.start();
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * One host, "local", owning every address of this machine, behind one switch: executors and TaskManagers on this
     * machine are then known endpoints (their connections cross no switch port, so they change no weights).
     */
    public static TopologyResolver thisMachine() {
        Topology t = Topology.builder().switchNode("s0", 8).host("local").link("s0", 1, "local", 1, 10).build();
        return new TopologyResolver(t, Map.of("local", localAddresses()));
    }

    private static List<String> localAddresses() {
        List<String> out = new ArrayList<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    String ip = a.getHostAddress();
                    int zone = ip.indexOf('%');
                    out.add(zone < 0 ? ip : ip.substring(0, zone));
                }
            }
        } catch (SocketException e) {
            out.add("127.0.0.1");
        }
        if (!out.contains("127.0.0.1")) {
            out.add("127.0.0.1");
        }
        return out.stream().distinct().toList();
    }

    /**
     * Starts everything; returns the gRPC address (the real port when port 0 was asked for). The order is what keeps
     * a mistaken start harmless: the journal directory's lock first (before anything there is read), then the
     * gRPC and HTTP sockets, and only then the journal's replay and the first pushes to the fabric; calls are let in
     * last.
     *
     * @throws StartupException when the journal directory is another controller's or a port is in use
     */
    public InetSocketAddress start() {
        Metrics metrics = new Metrics();
        if (b.group == null && b.journalDir != null) {
            journal = new Journal(b.journalDir, b.fsync, b.fsyncMillis); // takes the directory's lock
            // ports' originals beside the journal, so a crash cannot lose them (see FabricBackend)
            b.backend.keepOriginalsIn(PortOriginals.in(journal.dir()));
        } else if (b.group == null && !(b.backend instanceof DryRunBackend)) {
            LOG.warn("no journal-dir: the {} backend keeps ports' original configurations in memory only; if this "
                    + "controller crashes, the ports it programmed keep Saba's configuration until put back by hand",
                    b.backend.name());
        }
        StateLog log = b.group != null ? b.group.log() : new LocalLog(journal);
        Allocator allocator = allocator();
        // a group member's replica starts empty and takes the table the group's log carries
        controller = new SabaController(b.topology, allocator, b.group == null ? b.table : ModelCatalog.empty(),
                b.backend, log, b.leaseTimeout, metrics, b.roundInterval, b.sensitivity);
        api = controller;
        Tenants tenants = new Tenants(b.tokens, b.adminTenants);
        service = new ControllerService(api, tenants, this::configuredTable);
        try {
            List<io.grpc.ServerServiceDefinition> extra = b.backend instanceof GrpcServing serving
                    ? serving.grpcServices(new GrpcServing.Access(tenants, b.agentTokens,
                    metrics.requestsRejected::increment, metrics, b.topology() == null ? Set.of()
                    : b.topology().topology().hosts())) : List.of();
            server = new ControllerServer(ControllerServer.netty(b.listen, b.tlsCert, b.tlsKey), service,
                    new AuthInterceptor(tenants, metrics.requestsRejected::increment), b.grpcThreads,
                    b.health ? new GrpcHealth() : null, extra).start();
        } catch (UncheckedIOException e) {
            throw cannotListen("gRPC", b.listen, e);
        }
        if (b.http != null) {
            try {
                http = new StatusHttpServer(b.http, api, tenants);
            } catch (UncheckedIOException e) {
                throw cannotListen("HTTP", b.http, e);
            }
        }
        if (b.group == null) {
            controller.start();
            controller.tableInForce(tableInForce());
        } else {
            controller.startAsReplica();
            b.group.join(controller, b.table);
        }
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
        return address();
    }

    /**
     * Which table a lone controller starts with, said on its status and, when it is not what the operator may
     * expect, warned about: none at all (no differentiation), or a table saved by ReloadTable that differs from the
     * configured file (the journal's wins, so an edited file is not in force until it is reloaded).
     */
    private String tableInForce() {
        LogRequest.Table kept = controller.replica().table();
        String file = b.tableFile == null ? null : b.tableFile.toString();
        if (kept != null) {
            String where = journal != null ? journal.file().toString() : "memory";
            String saved = "saved by ReloadTable in " + where + " (" + kept.models().size() + " workloads)";
            if (file != null && !LogRequest.Table.of(b.table).equals(kept)) {
                LOG.warn("the sensitivity table saved by ReloadTable in {} is in force, not the configured table file "
                        + "{}, which differs; a ReloadTable without JSON puts the file in force", where, file);
                return saved + "; the configured file " + file + " differs and is not in force";
            }
            return saved + (file == null ? "" : ", the same as the configured file " + file);
        }
        if (b.table.models().isEmpty() && b.sensitivity != SensitivityMode.TABLE) {
            LOG.info("no sensitivity table (no 'table:' configured): every workload starts from the default model "
                    + "and gets its own once its applications report stages (sensitivity: {})", b.sensitivity.label());
            return "none: every workload starts from the default model and learns its own (sensitivity: "
                    + b.sensitivity.label() + ")";
        }
        if (b.table.models().isEmpty()) {
            LOG.warn("no sensitivity table (no 'table:' configured): every application gets the default model, so "
                    + "all share one level and equal weights; Saba differentiates nothing");
            return "none: every workload gets the default model (one level, equal shares)";
        }
        return (file == null ? "given at start" : "the configured file " + file) + " (" + b.table.size()
                + " workloads)";
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

    /**
     * The controller's allocation pipeline (the one the simulator runs too), reading the models and co-run profiles
     * in force.
     */
    private Allocator allocator() {
        return AllocationPipeline.build(b.allocation, new MinSlowdownSolver(),
                w -> controller.replica().corunProfileOf(w), b.levels, b.cSaba, b.corunMargin);
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
        InetSocketAddress a = address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.address(); // always a socket: start() listens with Netty
    }

    /** The status page's address, or null when disabled. */
    public InetSocketAddress httpAddress() {
        return http == null ? null : http.address();
    }

    public SabaController controller() {
        return controller;
    }

    /** What the transports call. */
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
        if (b.backend instanceof GrpcServing serving) {
            serving.stopServing();
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
        if (journal != null) {
            journal.close(); // closed already with the controller's log, unless start failed before it existed
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
        private Map<String, String> agentTokens = Map.of();
        private Set<String> adminTenants = Set.of();
        private int grpcThreads = -1;
        private Duration roundInterval = Duration.ofMillis(5);
        private Allocation allocation = Allocation.EQ2;
        private double corunMargin = AllocationPipeline.DEFAULT_CORUN_MARGIN;
        private SensitivityMode sensitivity = SensitivityMode.TABLE;
        private String groupUri;
        private boolean health;
        private GroupMembership group;

        /** The configuration's {@code group} key, kept for whoever can join such a group (the CLI); null if none. */
        public Builder groupUri(String uri) {
            groupUri = uri;
            return this;
        }

        public String groupUri() {
            return groupUri;
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

        /** Which model the allocator uses for a workload (default {@link SensitivityMode#TABLE}). */
        public Builder sensitivity(SensitivityMode m) {
            sensitivity = m;
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

        /**
         * host → the bearer token of that host's agent (a backend serving agents, {@link GrpcServing}); empty: agents
         * may connect only while authentication is off.
         */
        public Builder agentTokens(Map<String, String> t) {
            agentTokens = Map.copyOf(t);
            return this;
        }

        public Builder adminTenants(Set<String> a) {
            adminTenants = Set.copyOf(a);
            return this;
        }

        /**
         * Serves the standard gRPC health service too (what the standalone controller does; it needs
         * {@code io.grpc:grpc-services} on the class path, which the plugins' in-process controllers do not carry).
         */
        public Builder healthService(boolean on) {
            health = on;
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
                throw new IllegalArgumentException("journal-dir and group exclude each other: a controller group's "
                        + "record is its shared log in ZooKeeper");
            }
            if (leaseTimeout.isNegative() || leaseTimeout.isZero()) {
                throw new IllegalArgumentException("lease timeout must be positive, got " + leaseTimeout);
            }
            return new EmbeddedController(this);
        }
    }
}
