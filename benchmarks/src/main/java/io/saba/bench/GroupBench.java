package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.group.GroupSettings;
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
 * <p>Phases per configuration: registrations; batched {@code ReportConnections} (SabaClient's path) with calls in
 * flight; unary ConnectionOpened/Closed with calls in flight; then lag probes at low load: a fresh application
 * opens one connection and the time until some member's push of a port on its path carries that application is the
 * end-to-end lag (client call, shared log, owner's recomputation, backend push).
 */
public final class GroupBench {
    /** Settings. */
    public record Settings(int apps, int connections, int inFlight, int batch, String shape, int probes) {
        public static Settings defaults() {
            return new Settings(200, 20_000, 32, 500, "fat-tree:8", 40);
        }
    }

    private final Settings s;
    private final PrintStream out;

    public GroupBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
    }

    /** One configuration's figures. */
    record Figures(String name, double registerPerSec, double batchedEventsPerSec, double unaryEventsPerSec,
                   Histogram unaryLatency, Histogram lag) {
    }

    public void run() throws Exception {
        out.printf("group bench: %d apps, %d connections opened then closed per phase, %d calls in flight, "
                + "batches of %d, %s, %d lag probes; %d cores, load average %.1f%n", s.apps(), s.connections(),
                s.inFlight(), s.batch(), s.shape(), s.probes(), Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        List<Figures> all = new ArrayList<>();
        all.add(measure("lone controller", 0, null));
        List<InstanceSpec> specs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            File dir = Files.createTempDirectory("saba-bench-zk").toFile();
            specs.add(new InstanceSpec(dir, -1, -1, -1, true, i + 1, 500, 500));
        }
        try (TestingCluster zk = new TestingCluster(specs)) {
            zk.start();
            for (int n = 1; n <= 3; n++) {
                all.add(measure(n + (n == 1 ? " member" : " members"), n, zk.getConnectString()));
            }
        }
        out.println();
        out.printf("%-16s %12s %14s %14s %12s %12s %12s %12s%n", "configuration", "register/s", "batched ev/s",
                "unary ev/s", "unary p50", "unary p99", "lag p50", "lag p99");
        for (Figures f : all) {
            out.printf("%-16s %12.0f %14.0f %14.0f %9.2f ms %9.2f ms %9.2f ms %9.2f ms%n", f.name(),
                    f.registerPerSec(), f.batchedEventsPerSec(), f.unaryEventsPerSec(),
                    f.unaryLatency().getValueAtPercentile(50) / 1e6, f.unaryLatency().getValueAtPercentile(99) / 1e6,
                    f.lag().getValueAtPercentile(50) / 1e6, f.lag().getValueAtPercentile(99) / 1e6);
        }
        out.printf("load average after: %.1f%n",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.flush();
    }

    private Figures measure(String name, int members, String zkConnect) throws Exception {
        TopologyResolver topo = TopologyLoader.fromNode(new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree("{\"shape\": \"" + s.shape() + "\", \"address-base\": \"10.0.0.1\"}"), "bench topology", null);
        LagFabric fabric = new LagFabric();
        List<EmbeddedController> controllers = new ArrayList<>();
        List<ManagedChannel> channels = new ArrayList<>();
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
            double batched = batched(stubs, hosts, topo);
            Histogram unaryLatency = new Histogram(3);
            double unary = unary(stubs, hosts, topo, unaryLatency);
            Histogram lag = probes(stubs, hosts, topo, fabric);
            out.printf("%s: register %.0f/s, batched %.0f events/s, unary %.0f events/s, lag p50 %.2f ms%n", name,
                    registerPerSec, batched, unary, lag.getValueAtPercentile(50) / 1e6);
            out.flush();
            return new Figures(name, registerPerSec, batched, unary, unaryLatency, lag);
        } finally {
            channels.forEach(ManagedChannel::shutdownNow);
            controllers.forEach(EmbeddedController::close);
        }
    }

    private static ControllerGrpc.ControllerBlockingStub stub(List<ControllerGrpc.ControllerBlockingStub> stubs,
                                                              int i) {
        return stubs.get(Math.floorMod(i, stubs.size())).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    private Connection conn(List<String> hosts, TopologyResolver topo, int i, int phase) {
        String src = hosts.get(i % hosts.size());
        String dst = hosts.get((i * 7 + 1 + i / hosts.size()) % hosts.size());
        if (src.equals(dst)) {
            dst = hosts.get((i + 1) % hosts.size());
        }
        return Connection.newBuilder().setSrc(Endpoint.newBuilder().setIp(src).setPort(10_000 + i % 50_000))
                .setDst(Endpoint.newBuilder().setIp(dst).setPort(phase)).setTransport(Transport.TCP).build();
    }

    private double batched(List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts,
                           TopologyResolver topo) throws Exception {
        List<ConnectionBatch> calls = new ArrayList<>();
        for (boolean open : new boolean[] {true, false}) {
            ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
            for (int i = 0; i < s.connections(); i++) {
                b.addEvents(BatchedEvent.newBuilder().setOpen(open).setEvent(ConnectionEvent.newBuilder()
                        .setAppId("app-" + (i % s.apps())).setConnection(conn(hosts, topo, i, 1))));
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
        run(calls.subList(0, half), stubs, (st, c) -> st.reportConnections(c), null);
        run(calls.subList(half, calls.size()), stubs, (st, c) -> st.reportConnections(c), null);
        return 2.0 * s.connections() / ((System.nanoTime() - t0) / 1e9);
    }

    private double unary(List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts,
                         TopologyResolver topo, Histogram latency) throws Exception {
        int n = s.connections() / 4; // unary calls are slower: a quarter of the connections
        List<ConnectionEvent> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(ConnectionEvent.newBuilder().setAppId("app-" + (i % s.apps()))
                    .setConnection(conn(hosts, topo, i, 2)).build());
        }
        long t0 = System.nanoTime();
        run(events, stubs, (st, e) -> st.connectionOpened(e), latency);
        run(events, stubs, (st, e) -> st.connectionClosed(e), latency);
        return 2.0 * n / ((System.nanoTime() - t0) / 1e9);
    }

    private interface Call<T> {
        void send(ControllerGrpc.ControllerBlockingStub stub, T request);
    }

    /** Sends every request with {@code inFlight} threads, spreading them over the members. */
    private <T> void run(List<T> requests, List<ControllerGrpc.ControllerBlockingStub> stubs, Call<T> call,
                         Histogram latency) throws Exception {
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
    private Histogram probes(List<ControllerGrpc.ControllerBlockingStub> stubs, List<String> hosts,
                             TopologyResolver topo, LagFabric fabric) throws Exception {
        Histogram h = new Histogram(3);
        for (int p = 0; p < s.probes(); p++) {
            String app = "probe-" + p;
            stub(stubs, p).register(RegisterRequest.newBuilder().setAppId(app).setWorkload("w" + (p % 10))
                    .setFramework("bench").setUser("u").build());
            Thread.sleep(20);
            long t0 = System.nanoTime();
            stub(stubs, p + 1).connectionOpened(ConnectionEvent.newBuilder().setAppId(app)
                    .setConnection(conn(hosts, topo, p * 13, 3)).build());
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
