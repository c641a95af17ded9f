package io.saba.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.bench.ControllerBench;
import io.saba.core.alloc.LevelMode;
import io.saba.controller.group.GroupSettings;
import io.saba.bench.GroupBench;
import io.saba.bench.ScaleBench;
import io.saba.controller.group.ZkControllerGroup;
import io.saba.controller.journal.FsyncPolicy;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saba controller --config FILE}: the standalone controller ({@code saba controller} alone: the quick start,
 * {@link QuickStart}); {@code saba controller --fabric infiniband}: one
 * that discovers an InfiniBand subnet and programs its switches; {@code saba controller bench}: its benchmark.
 */
@Command(name = "controller", mixinStandardHelpOptions = true,
        description = "Run the Saba controller standalone (gRPC, status page, journal) until stopped.",
        subcommands = {ControllerCommand.Bench.class, ControllerCommand.GroupBenchCommand.class,
                ControllerCommand.ScaleBenchCommand.class})
final class ControllerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    // not picocli-required, so that "saba controller bench" needs no configuration
    @Option(names = "--config", paramLabel = "FILE",
            description = "Controller configuration (YAML). Without it (and without --fabric): the quick start,"
                    + " examples/quick-start.yaml (one switch, the example table, the dry-run fabric, the status"
                    + " page on 127.0.0.1:7071).")
    Path config;

    @Option(names = "--fabric", paramLabel = "NAME",
            description = "Fabric backend (overrides 'backend'). 'infiniband' also discovers the topology from the"
                    + " subnet when the configuration has none, and defaults to 16 levels.")
    String fabric;

    @Option(names = "--ibsim", paramLabel = "SOCKET",
            description = "Talk to an ibsim subnet (its IBSIM_SOCKNAME) instead of a real HCA (with --fabric infiniband).")
    String ibsim;

    @Option(names = "--ib-address", paramLabel = "HOST=IP", split = ",",
            description = "IPoIB address of a discovered host (name, guid:0x…, lid:N); repeatable.")
    java.util.List<String> ibAddresses = new java.util.ArrayList<>();

    @Option(names = "--ib-refresh", paramLabel = "SECONDS",
            description = "Re-discover the InfiniBand subnet every SECONDS (overrides 'refresh-seconds'; default 5, 0:"
                    + " never): how long a re-route or the subnet manager's first sweep takes to reach the tables.")
    Integer ibRefresh;

    @Option(names = "--ib-subnet-wait", paramLabel = "SECONDS",
            description = "At start, wait at most SECONDS for the subnet manager to route the configured hosts"
                    + " (overrides 'subnet-wait-seconds'; default 0). The controller serves afterwards either way.")
    Integer ibSubnetWait;

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "gRPC address (overrides 'listen').")
    String listen;

    // members of a group on one host share a configuration file but need a status port each
    @Option(names = "--http", paramLabel = "HOST:PORT",
            description = "Status page and /metrics address (overrides 'http'), e.g. 127.0.0.1:7071.")
    String http;

    @Option(names = "--sensitivity", paramLabel = "MODE",
            description = "Which model a workload is allocated with (overrides 'sensitivity'): table (default), online"
                    + " (its estimate from the units its applications report) or blended (the table, or the default"
                    + " model, updated by that estimate).")
    String sensitivity;

    // --cluster: the flag's name before "cluster" came to mean only K-means in this code base
    @Option(names = {"--group", "--cluster"}, paramLabel = "URI",
            description = "Join a controller group on ZooKeeper, e.g. zk://zk1:2181,zk2:2181/saba?id=ctl-a "
                    + "(overrides the configuration's 'group' key). Without it the controller runs alone.")
    String group;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile EmbeddedController controller;

    /** Stops a running controller (the shutdown hook's job in production; tests call it). */
    void stop() {
        EmbeddedController c = controller;
        if (c != null && stopping.compareAndSet(false, true)) {
            c.close();
            // the shutdown hook runs this too: an operator sees that the controller stopped, not silence
            spec.commandLine().getOut().println("saba controller: stopped");
            spec.commandLine().getOut().flush();
        }
        stopped.countDown();
    }

    /**
     * A group member programs hosts' NICs (the topology's {@code host-queues}) only through their agents
     * ({@code backend: agents}): a member's own backend would reach its own machine's NICs only, while an agent follows
     * whichever member holds its host.
     *
     * @throws IllegalArgumentException naming the fix otherwise
     */
    static void checkHostsInGroup(EmbeddedController.Builder b) {
        if (b.topology().hostEgressQueues() > 0 && (b.backend() == null || !"agents".equals(b.backend().name()))) {
            throw new IllegalArgumentException("a controller group programs switch ports only; remove 'host-queues'"
                    + " from the topology section, or enforce at the hosts with backend: agents");
        }
    }

    @Override
    public Integer call() throws Exception {
        // no configuration and no fabric to discover: the quick start, so that a first try shows a working controller
        QuickStart quick = config == null && fabric == null ? QuickStart.load() : null;
        ObjectNode root = config != null ? ControllerConfig.read(config)
                : quick != null ? quick.root : JsonNodeFactory.instance.objectNode();
        applyFlags(root);
        EmbeddedController.Builder b = quick != null ? quick.builder() : ControllerConfig.builder(root,
                config != null ? config.toAbsolutePath().getParent() : Path.of("").toAbsolutePath(),
                config != null ? config.toString() : "command line");
        String groupUri = group != null ? group : b.groupUri();
        GroupSettings settings = null;
        if (groupUri != null) {
            if (b.topology() == null) {
                throw new IllegalArgumentException("a controller group needs a static topology (a file or a shape);"
                        + " a discovered one (topology: {discover: ...}) or one built from agents (from-agents) is not"
                        + " supported in a group");
            }
            checkHostsInGroup(b);
            settings = GroupSettings.parse(groupUri);
            b.group(new ZkControllerGroup(settings, b.topology()));
        }
        controller = b.healthService(true).build();
        InetSocketAddress at;
        try {
            at = controller.start();
        } catch (RuntimeException e) {
            controller.close(); // lets go of the journal directory and the backend
            throw e;
        }
        if (settings != null) {
            spec.commandLine().getOut().printf("saba controller: member %s of the controller group zk://%s/%s%n",
                    settings.id(), settings.connect(), settings.namespace());
        }
        Thread hook = new Thread(this::stop, "saba-controller-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        if (quick != null) {
            quick.banner(controller, at, b.topology()).forEach(spec.commandLine().getOut()::println);
        }
        spec.commandLine().getOut().printf("saba controller: gRPC on %s:%d%s%n", at.getHostString(), at.getPort(),
                controller.httpAddress() == null ? ""
                        : ", status page on http://" + controller.httpAddress().getHostString() + ":"
                        + controller.httpAddress().getPort() + "/status");
        spec.commandLine().getOut().flush();
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        return 0;
    }

    /** --fabric, --ibsim, --ib-*, --listen, --http and --sensitivity written into the configuration tree. */
    void applyFlags(ObjectNode root) {
        // a flag's mistake is the flag's, not the configuration file's it overrides
        if (listen != null) {
            ControllerConfig.address(listen, "--listen");
            root.put("listen", listen);
        }
        if (sensitivity != null) {
            root.put("sensitivity", SensitivityMode.parse(sensitivity, "--sensitivity").label());
        }
        if (http != null) {
            ControllerConfig.httpAddress(http, "--http");
            root.put("http", http);
        }
        boolean ibFlags = ibsim != null || !ibAddresses.isEmpty() || ibRefresh != null || ibSubnetWait != null;
        if (fabric == null) {
            if (ibFlags) {
                throw new IllegalArgumentException("--ibsim and the --ib-* flags go with --fabric infiniband");
            }
            return;
        }
        root.put("backend", fabric);
        if (!fabric.equals("infiniband")) {
            return;
        }
        if (!root.hasNonNull("topology")) {
            root.putObject("topology").put("discover", "infiniband");
        }
        if (!root.hasNonNull("levels")) {
            root.put("levels", 16);
        }
        JsonNode topology = root.get("topology");
        boolean discovered = topology.isObject() && "infiniband".equals(topology.path("discover").asText());
        if (!discovered && ibFlags) {
            throw new IllegalArgumentException("--ibsim and the --ib-* flags need 'topology: {discover: infiniband}'"
                    + " (or no topology in the configuration)");
        }
        if (ibRefresh != null) {
            ((ObjectNode) topology).put("refresh-seconds", ibRefresh);
        }
        if (ibSubnetWait != null) {
            ((ObjectNode) topology).put("subnet-wait-seconds", ibSubnetWait);
        }
        if (ibsim != null) {
            ((ObjectNode) topology).put("ibsim", ibsim);
            JsonNode opts = root.path("backend-options");
            (opts.isObject() ? (ObjectNode) opts : root.putObject("backend-options")).put("ibsim", ibsim);
        }
        for (String a : ibAddresses) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--ib-address '" + a + "' is not HOST=IP");
            }
            JsonNode addrs = topology.path("addresses");
            ObjectNode map = addrs.isObject() ? (ObjectNode) addrs : ((ObjectNode) topology).putObject("addresses");
            JsonNode list = map.path(a.substring(0, eq));
            (list.isArray() ? (ArrayNode) list : map.putArray(a.substring(0, eq))).add(a.substring(eq + 1));
        }
    }

    /** {@code saba controller scale-bench}. */
    @Command(name = "scale-bench", mixinStandardHelpOptions = true,
            description = "The controller at scale: registers applications and opens connections over real gRPC on a "
                    + "large topology, then prints the heap held per application and per connection, the journal's "
                    + "size, and the time to restart: the journal's replay and every port allocated again.")
    static final class ScaleBenchCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--apps", defaultValue = "10000", description = "Applications (default ${DEFAULT-VALUE}).")
        int apps;

        @Option(names = "--connections", defaultValue = "1000000",
                description = "Connections opened (default ${DEFAULT-VALUE}).")
        int connections;

        @Option(names = "--shape", defaultValue = "fat-tree:24",
                description = "Topology shape (default ${DEFAULT-VALUE}: 3,456 hosts).")
        String shape;

        @Option(names = "--batch", defaultValue = "1000", description = "Events per ReportConnections call.")
        int batch;

        @Option(names = "--journal-dir", description = "Journal directory (default: a temporary one).")
        Path journalDir;

        @Option(names = "--fsync", defaultValue = "INTERVAL", description = "ALWAYS, INTERVAL or NEVER.")
        FsyncPolicy fsync;

        @Override
        public Integer call() throws Exception {
            spec.commandLine().getOut().println("command: saba " + String.join(" ",
                    spec.commandLine().getParseResult().originalArgs()));
            spec.commandLine().getOut().flush();
            if (apps < 1 || connections < 0 || batch < 1) {
                spec.commandLine().getErr().println("saba controller scale-bench: --apps and --batch must be at least 1"
                        + " and --connections at least 0");
                return 2;
            }
            new ScaleBench(new ScaleBench.Settings(apps, connections, shape, batch, journalDir, fsync), System.out)
                    .run();
            return 0;
        }
    }

    /** {@code saba controller group-bench}. */
    @Command(name = "group-bench", mixinStandardHelpOptions = true,
            description = "Benchmark a controller group of 1, 2 and 3 members on three in-process ZooKeeper servers, "
                    + "beside a lone controller, after warming up until the JIT is quiet: registrations/s, batched "
                    + "connection events/s, the client library's path at an offered rate (latency to the "
                    + "acknowledgement, push lag), unary events/s, and the lag from a connection event to the fabric "
                    + "push at low load.")
    static final class GroupBenchCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--apps", defaultValue = "200", description = "Applications (default ${DEFAULT-VALUE}).")
        int apps;

        @Option(names = "--connections", defaultValue = "20000",
                description = "Connections opened then closed, batched phase (default ${DEFAULT-VALUE}; the unary "
                        + "phase uses a quarter).")
        int connections;

        @Option(names = "--in-flight", defaultValue = "32", description = "Calls in flight (default ${DEFAULT-VALUE}).")
        int inFlight;

        @Option(names = "--batch", defaultValue = "500", description = "Events per ReportConnections call.")
        int batch;

        @Option(names = "--shape", defaultValue = "fat-tree:8", description = "Topology shape (default ${DEFAULT-VALUE}).")
        String shape;

        @Option(names = "--probes", defaultValue = "40", description = "Lag probes (default ${DEFAULT-VALUE}).")
        int probes;

        @Option(names = "--rate", defaultValue = "20000",
                description = "Events per second offered on the client library's path (default ${DEFAULT-VALUE}).")
        int rate;

        @Option(names = "--clients", defaultValue = "4",
                description = "Clients on that path, spread over the members (default ${DEFAULT-VALUE}).")
        int clients;

        @Option(names = "--warm-up-passes", defaultValue = "12", description = "Warm-up passes at most; they stop "
                + "once the JIT compilers take under 5 %% of a pass's CPU (default ${DEFAULT-VALUE}).")
        int warmUpPasses;

        @Override
        public Integer call() throws Exception {
            if (apps < 1 || connections < 1 || inFlight < 1 || batch < 1 || probes < 0 || rate < 1 || clients < 1
                    || warmUpPasses < 1) {
                spec.commandLine().getErr().println("saba controller group-bench: --apps, --connections, --in-flight, "
                        + "--batch, --rate, --clients and --warm-up-passes must be at least 1, --probes at least 0");
                return 2;
            }
            spec.commandLine().getOut().println("command: saba " + String.join(" ",
                    spec.commandLine().getParseResult().originalArgs()));
            spec.commandLine().getOut().flush();
            new GroupBench(new GroupBench.Settings(apps, connections, inFlight, batch, shape, probes, rate, clients,
                    warmUpPasses),
                    System.out).run();
            return 0;
        }
    }

    /** {@code saba controller bench}. */
    @Command(name = "bench", mixinStandardHelpOptions = true,
            description = "Benchmark the controller on loopback: registrations, then connection events (unary calls "
                    + "in a closed loop and offered at a fixed rate, the client library's batching path offered at "
                    + "that rate, batched calls as fast as acknowledged); prints events/s, latency percentiles, CPU "
                    + "per event and the lag from an event to the fabric push, beside a baseline run if given.")
    static final class Bench implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--apps", defaultValue = "1000", description = "Applications (default ${DEFAULT-VALUE}).")
        int apps;

        @Option(names = "--connections", defaultValue = "100000",
                description = "Connections opened then closed (default ${DEFAULT-VALUE}).")
        int connections;

        @Option(names = "--in-flight", defaultValue = "32",
                description = "Unary calls in flight in the closed loop (default ${DEFAULT-VALUE}).")
        int inFlight;

        @Option(names = "--rate", defaultValue = "20000",
                description = "Open-loop schedule, calls per second (default ${DEFAULT-VALUE}).")
        int rate;

        @Option(names = "--batch", defaultValue = "500", description = "Events per ReportConnections call.")
        int batch;

        @Option(names = "--shape", defaultValue = "fat-tree:16", description = "Topology shape (default ${DEFAULT-VALUE}).")
        String shape;

        @Option(names = "--table", description = "Sensitivity table (default: 10 synthetic workloads).")
        Path table;

        @Option(names = "--journal-dir", description = "Journal directory (default: a temporary one).")
        Path journalDir;

        @Option(names = "--fsync", defaultValue = "INTERVAL", description = "ALWAYS, INTERVAL or NEVER.")
        FsyncPolicy fsync;

        @Option(names = "--grpc-threads", defaultValue = "2",
                description = "Server executor threads; 0 runs calls on the event loop (default ${DEFAULT-VALUE}).")
        int grpcThreads;

        @Option(names = "--clients", defaultValue = "4",
                description = "Clients sharing the offered rate in the client library's path (default ${DEFAULT-VALUE}).")
        int clients;

        @Option(names = "--linger-ms", defaultValue = "1",
                description = "How long a client's call waits for more events after the first, as the client library's"
                        + " sender does (default ${DEFAULT-VALUE} ms, the library's).")
        double lingerMs;

        @Option(names = "--baseline", description = "An earlier run's output: its phases are printed beside this run's, "
                + "as ratios.")
        Path baseline;

        @Option(names = "--level-per", defaultValue = "workload", paramLabel = "workload|application",
                description = "The controller's level-per setting (default ${DEFAULT-VALUE}).")
        String levelPer;

        @Override
        public Integer call() throws Exception {
            LevelMode mode;
            try {
                mode = LevelMode.parse(levelPer, "--level-per");
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("saba controller bench: " + e.getMessage());
                return 2;
            }
            spec.commandLine().getOut().println("command: saba " + String.join(" ",
                    spec.commandLine().getParseResult().originalArgs()));
            spec.commandLine().getOut().flush();
            if (clients < 1 || lingerMs < 0 || rate < 1) {
                spec.commandLine().getErr().println("saba controller bench: --clients and --rate must be at least 1 and"
                        + " --linger-ms at least 0");
                return 2;
            }
            if (baseline != null && !Files.isReadable(baseline)) {
                spec.commandLine().getErr().println("saba controller bench: --baseline " + baseline
                        + ": no such readable file");
                return 2;
            }
            new ControllerBench(new ControllerBench.Settings(apps, connections, inFlight, rate, batch, shape,
                    journalDir, table, fsync, grpcThreads, clients, Duration.ofNanos(Math.round(lingerMs * 1e6)),
                    baseline, mode), System.out).run();
            return 0;
        }
    }
}
