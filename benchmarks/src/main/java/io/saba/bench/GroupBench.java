package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.group.GroupSettings;
import io.saba.controller.group.LocalEnsemblePorts;
import io.saba.controller.group.ZkControllerGroup;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.Transport;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;

/**
 * Connection events per second and event-to-push lag of a controller group of 1, 2 and 3 members, beside a lone
 * controller, on this machine: three real ZooKeeper servers in-process (Curator's TestingCluster, transaction logs
 * fsynced to a temporary directory as in production), members and client on loopback gRPC, the client spreading its
 * calls over the members.
 *
 * <p>Phases per configuration: registrations; batched {@code ReportConnections} with calls in flight, as fast as
 * acknowledged; the client library's path at a fixed offered rate ({@link OfferedLoad}, its clients spread over the
 * members), each event's latency to its acknowledgement, and the members' event → push lag meanwhile; unary
 * ConnectionOpened/Closed with calls in flight; then lag probes at low load: a fresh application opens one
 * connection and the time until some member's push of a port on its path carries that application is the
 * end-to-end lag (client call, shared log, owner's recomputation, backend push).
 *
 * <p>Before the figures, warm-up passes run a lone controller and a 3-member group through the same phases (on a
 * quarter of the connections) until the JIT compilers take under {@link WarmUp#QUIET_JIT_SHARE} of a pass's
 * CPU, so that the lone controller, measured first, does not run on a cold JVM and come out slower than the groups
 * measured after it.
 */
public final class GroupBench {
    /** Settings; {@code warmUpPasses}: at most this many warm-up passes (they stop once the JIT is quiet). */
    public record Settings(int apps, int connections, int inFlight, int batch, String shape, int probes, int rate,
                           int clients, int warmUpPasses) {
        /** The same on a quarter of the connections and probes: a warm-up pass. */
        Settings warmUp() {
            return new Settings(apps, Math.max(1, connections / 4), inFlight, batch, shape, Math.max(1, probes / 4),
                    rate, clients, warmUpPasses);
        }
    }

    /** The client library's linger (ClientConfig's default). */
    static final Duration LINGER = Duration.ofMillis(1);

    private final Settings s;
    private final PrintStream out;

    public GroupBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
    }

    /** One configuration's figures. */
    record Figures(String name, double registerPerSec, double batchedEventsPerSec, double offeredEventsPerSec,
                   Histogram offeredLatency, Histogram offeredPushLag, double unaryEventsPerSec,
                   Histogram unaryLatency, Histogram lag) {
    }

    public void run() throws Exception {
        out.printf("group bench: %d apps, %d connections opened then closed per phase, %d calls in flight, "
                + "batches of %d, the client library's path offered at %d/s by %d clients, %s, %d lag probes; "
                + "%d cores, collectors %s, load average %.1f%n", s.apps(), s.connections(), s.inFlight(), s.batch(),
                s.rate(), s.clients(), s.shape(), s.probes(), Runtime.getRuntime().availableProcessors(),
                ProcessFigures.collectors(), loadAverage());
        // before ZooKeeper starts: a shape that does not parse fails at once, and every configuration shares it
        TopologyResolver topo = TopologyLoader.fromNode(BenchTopology.shaped(s.shape()), "bench topology", null);
        List<Figures> all = new ArrayList<>();
        List<InstanceSpec> specs = new ArrayList<>();
        int[] ports = LocalEnsemblePorts.distinct(9);
        for (int i = 0; i < 3; i++) {
            File dir = Files.createTempDirectory("saba-bench-zk").toFile();
            specs.add(new InstanceSpec(dir, ports[3 * i], ports[3 * i + 1], ports[3 * i + 2], true, i + 1, 500, 500));
        }
        try (TestingCluster zk = new TestingCluster(specs)) {
            zk.start();
            warmUp(topo, zk.getConnectString());
            all.add(measure(s, topo, "lone controller", 0, null));
            for (int n = 1; n <= 3; n++) {
                all.add(measure(s, topo, n + (n == 1 ? " member" : " members"), n, zk.getConnectString()));
            }
        }
        out.println();
        out.printf("(client path: events offered at %d/s, acknowledged per second; latency from each event's intended "
                + "time to its acknowledgement; push lag: the members' own, from applying an event to pushing it)%n",
                s.rate());
        out.printf("%-16s %10s %12s %10s %10s %10s %10s %10s %10s %10s %10s %10s%n", "configuration", "register/s",
                "batched/s", "client/s", "client p50", "client p99", "push p99", "unary/s", "unary p50",
                "unary p99", "probe p50", "probe p99");
        for (Figures f : all) {
            out.printf("%-16s %10.0f %12.0f %10.0f %10s %10s %10s %10.0f %10s %10s %10s %10s%n", f.name(),
                    f.registerPerSec(), f.batchedEventsPerSec(), f.offeredEventsPerSec(), ms(f.offeredLatency(), 50),
                    ms(f.offeredLatency(), 99), ms(f.offeredPushLag(), 99), f.unaryEventsPerSec(),
                    ms(f.unaryLatency(), 50), ms(f.unaryLatency(), 99), ms(f.lag(), 50), ms(f.lag(), 99));
        }
        out.printf("load average after: %.1f%n", loadAverage());
        out.flush();
    }

    private static String ms(Histogram h, double percentile) {
        return String.format("%.2f ms", h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6);
    }

    private static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /**
     * A lone controller and a 3-member group through every phase on a quarter of the connections, pass after pass,
     * until the JIT compilers are quiet ({@link WarmUp}); not counted.
     */
    private void warmUp(TopologyResolver topo, String zkConnect) throws Exception {
        WarmUp.untilJitQuiet(() -> {
            measure(s.warmUp(), topo, null, 0, null);
            measure(s.warmUp(), topo, null, 3, zkConnect);
        }, s.warmUpPasses(), out);
    }

    /** One configuration through every phase; {@code name} null for a warm-up (nothing printed). */
    private Figures measure(Settings s, TopologyResolver topo, String name, int members, String zkConnect)
            throws Exception {
        LagFabric fabric = new LagFabric();
        List<EmbeddedController> controllers = new ArrayList<>();
        List<ManagedChannel> channels = new ArrayList<>();
        List<ManagedChannel> clientChannels = new ArrayList<>();
        String namespace = "saba-bench-" + System.nanoTime();
        try {
            for (int i = 0; i < Math.max(1, members); i++) {
                EmbeddedController.Builder b = EmbeddedController.builder().topology(topo).table(table())
                        .backend(fabric, false).grpcThreads(members > 0 ? 64 : 2)
                        .leaseTimeout(Duration.ofMinutes(10));
                if (members > 0) {
                    b.group(new ZkControllerGroup(new GroupSettings(zkConnect, namespace, Duration.ofSeconds(10),
                            "b" + i), topo.topology()));
                }
                EmbeddedController c = b.build();
                controllers.add(c);
                c.start();
                channels.add(NettyChannelBuilder.forTarget(c.target()).usePlaintext().build());
            }
            for (int i = 0; i < s.clients(); i++) { // the clients spread over the members, a connection each
                clientChannels.add(NettyChannelBuilder.forTarget(controllers.get(i % controllers.size()).target())
                        .usePlaintext().directExecutor().build());
            }
            List<ControllerGrpc.ControllerBlockingStub> stubs = channels.stream()
                    .map(ch -> ControllerGrpc.newBlockingStub(ch)).toList();
            List<String> hosts = new ArrayList<>(new java.util.TreeSet<>(topo.addresses().keySet())); // IPs
            if (hosts.size() < 2) {
                throw new IllegalArgumentException("shape " + s.shape() + " gives fewer than two host addresses");
            }
            // registrations, spread over the members
            long t0 = System.nanoTime();
            for (int a = 0; a < s.apps(); a++) {
                stub(stubs, a).register(RegisterRequest.newBuilder().setAppId("app-" + a)
                        .setWorkload("w" + (a % 10)).setFramework("bench").setUser("u").build());
            }
            double registerPerSec = s.apps() / ((System.nanoTime() - t0) / 1e9);
            double batched = batched(s, stubs, hosts);
            Histogram offeredLatency = new Histogram(3);
            Histogram offeredLag = new Histogram(3);
            double offered = offered(s, clientChannels, hosts, controllers, offeredLatency, offeredLag);
            Histogram unaryLatency = new Histogram(3);
            double unary = unary(s, stubs, hosts, unaryLatency);
            Histogram lag = probes(s, stubs, hosts, fabric);
            if (name != null) {
                out.printf("%s: register %.0f/s, batched %.0f events/s, client path %.0f events/s (p99 %s), unary "
                        + "%.0f events/s, probe lag p50 %s%n", name, registerPerSec, batched, offered,
                        ms(offeredLatency, 99), unary, ms(lag, 50));
                out.flush();
            }
            return new Figures(name, registerPerSec, batched, offered, offeredLatency, offeredLag, unary,
                    unaryLatency, lag);
        } finally {
            clientChannels.forEach(ManagedChannel::shutdownNow);
            channels.forEach(ManagedChannel::shutdownNow);
            controllers.forEach(EmbeddedController::close);
        }
    }

    private static ControllerGrpc.ControllerBlockingStub stub(List<ControllerGrpc.ControllerBlockingStub> stubs,
                                                              int i) {
        return stubs.get(Math.floorMod(i, stubs.size())).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    private static Connection conn(List<String> hosts, int i, int phase) {
        String src = hosts.get(i % hosts.size());
        String dst = hosts.get((i * 7 + 1 + i / hosts.size()) % hosts.size());
        if (src.equals(dst)) {
            dst = hosts.get((i + 1) % hosts.size());
        }
        return Connection.newBuilder().setSrc(Endpoint.newBuilder().setIp(src).setPort(10_000 + i % 50_000))
                .setDst(Endpoint.newBuilder().setIp(dst).setPort(phase)).setTransport(Transport.TCP).build();
    }

    private double batched(Settings s, List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts)
            throws Exception {
        List<ConnectionBatch> calls = new ArrayList<>();
        for (boolean open : new boolean[] {true, false}) {
            ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
            for (int i = 0; i < s.connections(); i++) {
                b.addEvents(BatchedEvent.newBuilder().setOpen(open).setEvent(ConnectionEvent.newBuilder()
                        .setAppId("app-" + (i % s.apps())).setConnection(conn(hosts, i, 1))));
                if (b.getEventsCount() == s.batch()) {
                    calls.add(b.build());
                    b = ConnectionBatch.newBuilder();
                }
            }
            if (b.getEventsCount() > 0) {
                calls.add(b.build());
            }
        }
        // opens before closes: the two halves run one after the other
        int half = calls.size() / 2;
        long t0 = System.nanoTime();
        run(s, calls.subList(0, half), stubs, (st, c) -> st.reportConnections(c), null);
        run(s, calls.subList(half, calls.size()), stubs, (st, c) -> st.reportConnections(c), null);
        return 2.0 * s.connections() / ((System.nanoTime() - t0) / 1e9);
    }

    /**
     * The client library's path: {@code connections} opened then closed at the offered rate over the client
     * channels; each event's latency into {@code latency} and the members' push lags meanwhile into {@code pushLag}.
     *
     * @return events acknowledged per second
     */
    private double offered(Settings s, List<ManagedChannel> clients, List<String> hosts,
                           List<EmbeddedController> members, Histogram latency, Histogram pushLag) throws Exception {
        List<ConnectionEvent> events = new ArrayList<>();
        for (int i = 0; i < s.connections(); i++) {
            events.add(ConnectionEvent.newBuilder().setAppId("app-" + (i % s.apps()))
                    .setConnection(conn(hosts, i, 4)).build());
        }
        List<Histogram> lagBefore = new ArrayList<>();
        for (EmbeddedController c : members) {
            lagBefore.add(c.controller().metrics().pushLag.cumulative());
        }
        OfferedLoad load = new OfferedLoad(s.rate(), LINGER, () -> { });
        long t0 = System.nanoTime();
        for (boolean open : new boolean[] {true, false}) {
            OfferedLoad.Sent sent = load.offer(clients, events, open);
            latency.add(sent.perEvent());
            if (sent.failed() > 0) {
                out.printf("WARNING: %d calls failed on the client path%n", sent.failed());
            }
        }
        double perSecond = 2.0 * events.size() / ((System.nanoTime() - t0) / 1e9);
        for (EmbeddedController c : members) {
            if (!c.controller().recomputer().awaitQuiescent(Duration.ofMinutes(2))) {
                out.println("WARNING: a member's recomputation did not catch up within 2 minutes");
            }
        }
        for (int i = 0; i < members.size(); i++) {
            Histogram h = members.get(i).controller().metrics().pushLag.cumulative();
            h.subtract(lagBefore.get(i));
            pushLag.add(h);
        }
        return perSecond;
    }

    private double unary(Settings s, List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts,
                         Histogram latency) throws Exception {
        int n = s.connections() / 4; // unary calls are slower: a quarter of the connections
        List<ConnectionEvent> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(ConnectionEvent.newBuilder().setAppId("app-" + (i % s.apps()))
                    .setConnection(conn(hosts, i, 2)).build());
        }
        long t0 = System.nanoTime();
        run(s, events, stubs, (st, e) -> st.connectionOpened(e), latency);
        run(s, events, stubs, (st, e) -> st.connectionClosed(e), latency);
        return 2.0 * n / ((System.nanoTime() - t0) / 1e9);
    }

    private interface Call<T> {
        void send(ControllerGrpc.ControllerBlockingStub stub, T request);
    }

    /** Sends every request with {@code inFlight} threads, spreading them over the members. */
    private <T> void run(Settings s, List<T> requests, List<ControllerGrpc.ControllerBlockingStub> stubs,
                         Call<T> call, Histogram latency) throws Exception {
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(s.inFlight());
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < s.inFlight(); t++) {
                fs.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < requests.size(); i = next.getAndIncrement()) {
                        long start = System.nanoTime();
                        call.send(stub(stubs, i), requests.get(i));
                        if (latency != null) {
                            synchronized (latency) {
                                latency.recordValue(System.nanoTime() - start);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** End-to-end lag at low load: a fresh application's first connection, until a push carries it. */
    private Histogram probes(Settings s, List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts,
                             LagFabric fabric) throws Exception {
        Histogram h = new Histogram(3);
        for (int p = 0; p < s.probes(); p++) {
            String app = "probe-" + p;
            stub(stubs, p).register(RegisterRequest.newBuilder().setAppId(app).setWorkload("w" + (p % 10))
                    .setFramework("bench").setUser("u").build());
            Thread.sleep(20);
            long t0 = System.nanoTime();
            stub(stubs, p + 1).connectionOpened(ConnectionEvent.newBuilder().setAppId(app)
                    .setConnection(conn(hosts, p * 13, 3)).build());
            long seen = fabric.awaitApp(app, t0 + TimeUnit.SECONDS.toNanos(10));
            if (seen > 0) {
                h.recordValue(seen - t0);
            } else {
                out.println("  probe " + app + ": no push within 10 s");
            }
        }
        return h;
    }

    private static ModelCatalog table() {
        Map<String, SensitivityModel> m = new java.util.TreeMap<>();
        java.util.Random r = new java.util.Random(7);
        for (int w = 0; w < 10; w++) {
            double c1 = -0.5 - 4 * r.nextDouble();
            m.put("w" + w, SensitivityModel.of(1 - c1 - 0.2, c1, 0.2));
        }
        return new ModelCatalog(m);
    }

    /** A fabric that remembers when each application first appeared in a push. */
    private static final class LagFabric implements FabricBackend {
        private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();

        @Override
        public String name() {
            return "lag-probe";
        }

        @Override
        public ApplyResult apply(Collection<PortAllocation> changed) {
            long now = System.nanoTime();
            Set<PortId> done = new java.util.HashSet<>();
            for (PortAllocation a : changed) {
                for (String app : a.appWeights().keySet()) {
                    if (app.startsWith("probe-")) {
                        firstSeen.putIfAbsent(app, now);
                    }
                }
                done.add(a.port());
            }
            return new ApplyResult(done, Map.of());
        }

        @Override
        public ApplyResult release(Set<PortId> ports) {
            return new ApplyResult(ports, Map.of());
        }

        long awaitApp(String app, long deadline) throws InterruptedException {
            while (System.nanoTime() < deadline) {
                Long t = firstSeen.get(app);
                if (t != null) {
                    return t;
                }
                Thread.sleep(0, 200_000);
            }
            return -1;
        }

        @Override
        public void close() {
        }
    }
}
