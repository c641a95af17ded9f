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
import io.saba.core.alloc.LevelMode;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.controller.grpc.GrpcServing;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.log.StateLog;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topology;
import java.io.IOException;
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
 *
 * <p>This class keeps the order of its parts, in which they start and close; how it is reached is {@link Serving},
 * which table it starts with {@link TableInForce}, and what it is built from {@link Settings}, set by its
 * {@link Builder}.
 */
public final class EmbeddedController implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EmbeddedController.class);
    private final Settings s;
    private final Serving serving;
    private SabaController controller;
    private Journal journal;

    private EmbeddedController(Settings s) {
        this.s = s;
        this.serving = new Serving(s);
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
        StateLog log = s.group != null ? s.group.log() : new LocalLog(lockJournal());
        // a group member's replica starts empty and takes the table the group's log carries
        controller = new SabaController(s.topology, allocator(), s.group == null ? s.table : ModelCatalog.empty(),
                s.backend, log, s.leaseTimeout, metrics, s.roundInterval, s.sensitivity);
        Tenants tenants = new Tenants(s.tokens, s.adminTenants);
        serving.listen(controller, tenants, metrics);
        if (s.group == null) {
            controller.start();
            controller.tableInForce(TableInForce.describe(s, controller.replica().table(), journal));
        } else {
            controller.startAsReplica();
            s.group.join(controller, s.table);
        }
        serving.open(tenants);
        return address();
    }

    /**
     * A lone controller's journal, which takes its directory's lock, or null to keep state in memory; the ports'
     * originals are kept beside it, so a crash cannot lose them (see {@link FabricBackend}).
     */
    private Journal lockJournal() {
        if (s.journalDir != null) {
            journal = new Journal(s.journalDir, s.fsync, s.fsyncMillis); // takes the directory's lock
            s.backend.keepOriginalsIn(PortOriginals.in(journal.dir()));
        } else if (!(s.backend instanceof DryRunBackend)) {
            LOG.warn("no journal-dir: the {} backend keeps ports' original configurations in memory only; if this "
                    + "controller crashes, the ports it programmed keep Saba's configuration until put back by hand",
                    s.backend.name());
        }
        return journal;
    }

    /**
     * The controller's allocation pipeline (the one the simulator runs too), reading the models and co-run profiles
     * in force.
     */
    private Allocator allocator() {
        return AllocationPipeline.build(s.allocation, new MinSlowdownSolver(),
                w -> controller.replica().corunProfileOf(w), s.levels, s.cSaba, s.corunMargin,
                new io.saba.controller.alloc.CorunSearches(), s.levelPer);
    }

    /** "host:port" for {@code ClientConfig.defaults}. */
    public String target() {
        InetSocketAddress a = address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public InetSocketAddress address() {
        return serving.address();
    }

    /** The status page's address, or null when disabled. */
    public InetSocketAddress httpAddress() {
        return serving.httpAddress();
    }

    public SabaController controller() {
        return controller;
    }

    /** What the transports call. */
    public ControllerApi api() {
        return controller;
    }

    public FabricBackend backend() {
        return s.backend;
    }

    /** Stops serving, then closes state, journal and backend (in that order, so no request sees a closed journal). */
    @Override
    public void close() {
        serving.close();
        if (s.group != null) {
            s.group.close();
        }
        if (controller != null) {
            controller.close();
        }
        if (journal != null) {
            journal.close(); // closed already with the controller's log, unless start failed before it existed
        }
        if (s.closeBackend) {
            s.backend.close();
        }
        if (s.topology instanceof AutoCloseable resolver) {
            try {
                resolver.close(); // a discovered fabric's refresh timer
            } catch (Exception e) {
                throw new IllegalStateException("closing the path resolver failed", e);
            }
        }
    }

    /** What to build; unset, an embedded controller's defaults: loopback, ephemeral port, memory only, dry-run. */
    public static final class Builder {
        private final Settings s = new Settings();

        /** The configuration's {@code group} key, kept for whoever can join such a group (the CLI); null if none. */
        public Builder groupUri(String uri) {
            s.groupUri = uri;
            return this;
        }

        public String groupUri() {
            return s.groupUri;
        }

        /** Runs as a member of a controller group instead of alone (see {@link GroupMembership}). */
        public Builder group(GroupMembership g) {
            s.group = g;
            return this;
        }

        /** The static topology, or null when paths come from discovery ({@link #paths}). */
        public TopologyResolver topology() {
            return s.topology instanceof TopologyResolver t ? t : null;
        }

        /** The fabric backend as configured so far. */
        public FabricBackend backend() {
            return s.backend;
        }

        /** Least time between recomputation rounds (default 5 ms); see {@code Recomputer}. */
        public Builder recomputeInterval(Duration d) {
            s.roundInterval = d;
            return this;
        }

        public Builder listen(InetSocketAddress a) {
            s.listen = a;
            return this;
        }

        public Builder http(InetSocketAddress a) {
            s.http = a;
            return this;
        }

        public Builder topology(TopologyResolver t) {
            s.topology = t;
            return this;
        }

        /** Paths from any resolver, e.g. a discovered InfiniBand subnet. */
        public Builder paths(PathResolver r) {
            s.topology = r;
            return this;
        }

        public Builder table(ModelCatalog t) {
            s.table = t;
            return this;
        }

        /** The table file a ReloadTable without inline JSON rereads. */
        public Builder tableFile(Path f) {
            s.tableFile = f;
            return this;
        }

        /** How ports' weights are chosen (default {@link Allocation#EQ2}). */
        public Builder allocation(Allocation a) {
            s.allocation = a;
            return this;
        }

        /** The relative predicted gain a co-run plan needs over the equal split and the port's current weights. */
        public Builder corunMargin(double m) {
            s.corunMargin = m;
            return this;
        }

        /** Which model the allocator uses for a workload (default {@link SensitivityMode#TABLE}). */
        public Builder sensitivity(SensitivityMode m) {
            s.sensitivity = m;
            return this;
        }

        /**
         * What a priority level is given to (default {@link LevelMode#WORKLOAD}, the paper's): with
         * {@link LevelMode#APPLICATION} each application takes a level of its own while levels are free.
         */
        public Builder levelPer(LevelMode m) {
            s.levelPer = m;
            return this;
        }

        public Builder cSaba(double c) {
            s.cSaba = c;
            return this;
        }

        public Builder levels(int l) {
            s.levels = l;
            return this;
        }

        /** The backend; the controller closes it on {@link #close()} unless {@code owned} is false. */
        public Builder backend(FabricBackend f, boolean owned) {
            s.backend = f;
            s.closeBackend = owned;
            return this;
        }

        public Builder journal(Path dir, FsyncPolicy policy, long fsyncIntervalMillis) {
            s.journalDir = dir;
            s.fsync = policy;
            s.fsyncMillis = fsyncIntervalMillis;
            return this;
        }

        public Builder leaseTimeout(Duration d) {
            s.leaseTimeout = d;
            return this;
        }

        public Builder tls(Path certPem, Path keyPem) {
            s.tlsCert = certPem;
            s.tlsKey = keyPem;
            return this;
        }

        /** tenant → bearer token; empty turns authentication off. */
        public Builder tokens(Map<String, String> t) {
            s.tokens = Map.copyOf(t);
            return this;
        }

        /**
         * host → the bearer token of that host's agent (a backend serving agents, {@link GrpcServing}); empty: agents
         * may connect only while authentication is off.
         */
        public Builder agentTokens(Map<String, String> t) {
            s.agentTokens = Map.copyOf(t);
            return this;
        }

        public Builder adminTenants(Set<String> a) {
            s.adminTenants = Set.copyOf(a);
            return this;
        }

        /**
         * Serves the standard gRPC health service too (what the standalone controller does; it needs
         * {@code io.grpc:grpc-services} on the class path, which the plugins' in-process controllers do not carry).
         */
        public Builder healthService(boolean on) {
            s.health = on;
            return this;
        }

        public Builder grpcThreads(int n) {
            s.grpcThreads = n;
            return this;
        }

        /** @throws IllegalArgumentException naming the setting at fault */
        public EmbeddedController build() {
            s.complete();
            return new EmbeddedController(s);
        }
    }
}
