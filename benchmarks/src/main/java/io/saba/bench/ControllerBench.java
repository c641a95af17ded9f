package io.saba.bench;

import io.grpc.ManagedChannel;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.Metrics;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.core.alloc.LevelMode;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.model.SensitivityModel;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.Transport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The controller's throughput and latency on loopback: registers {@code apps} applications, then opens and closes
 * {@code connections} connections with real gRPC calls, a quarter of them in each of four phases:
 * <ol>
 *   <li>{@code unary-closed}: unary ConnectionOpened/Closed with a fixed number of calls in flight;</li>
 *   <li>{@code unary-open}: unary calls offered on a fixed schedule (default 20,000/s), latency measured from each
 *       call's intended send time, so a stall is charged to every call it delayed (no coordinated omission);</li>
 *   <li>{@code client-open}: the client library's path at the same offered rate: events are handed to
 *       {@code clients} senders that work as the library's sender thread does (one ReportConnections call in
 *       flight each, carrying the first event queued and what follows within the linger, at most 1,000), and each
 *       event's latency runs from its intended time to the acknowledgement of the call that carried it;</li>
 *   <li>{@code batched}: ReportConnections of {@code batch} events, 4 calls in flight, as fast as the controller
 *       acknowledges them: the rate the event path sustains.</li>
 * </ol>
 * Each phase's row combines its opens and its closes. "until pushed" counts until the recompute thread has pushed
 * every change the phase made (the dry-run backend), and CPU is the whole process's (client, server, recompute
 * and GC threads) over that span, per event. Push lag is the controller's own histogram: per recompute round, the
 * time from the oldest event it covers to the end of its push. The controller runs in-process with the journal on
 * (fsync every 20 ms). Before the phases, warm-up passes run every path until the JIT compilers are quiet
 * ({@link #warmUp}). The collector is the JVM's choice (G1 unless {@code SABA_JAVA_OPTS} picks another); its pauses
 * are in every latency tail, so the header names it.
 *
 * <p>With a baseline (an earlier run's printed output, e.g. another commit's build), the phases are printed side
 * by side with it, as ratios.
 *
 * <p>This class runs the phases and measures them; the paths events take are {@link EventPaths}, the printed tables
 * and the baseline {@link ControllerBenchTable}.
 */
public final class ControllerBench {
    /** Events each warm-up pass sends through every path, at most. */
    static final int WARM_UP_EVENTS = 20_000;
    static final int MAX_WARM_UP_PASSES = 10;

    /** Settings of one run: {@code saba controller bench}'s options. */
    public record Settings(int apps, int connections, int inFlight, int rate, int batch, String shape,
                           Path journalDir, Path table, FsyncPolicy fsync, int grpcThreads, int clients,
                           Duration linger, Path baseline, LevelMode levelPer) {
    }

    /** Applications registered while the connections are open: what a registration costs then. */
    static final int LATE_APPS = 50;

    private final Settings s;
    private final PrintStream out;
    private final CpuByThread cpuByThread = new CpuByThread();
    private final EventPaths paths;
    private final ControllerBenchTable table;

    public ControllerBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
        this.paths = new EventPaths(s, cpuByThread, out);
        this.table = new ControllerBenchTable(out);
    }

    public void run() throws Exception {
        Map<String, double[]> baseline = s.baseline() == null ? Map.of() : readBaseline(s.baseline());
        Path journal = s.journalDir() != null ? s.journalDir() : Files.createTempDirectory("saba-bench-journal");
        TopologyResolver topo = TopologyLoader.fromNode(
                BenchTopology.shaped(s.shape()).put("gbps", 100).put("queues", 8), "bench", null);
        List<String> ips = new ArrayList<>(topo.addresses().keySet());
        ips.sort(String::compareTo);
        ModelCatalog catalog = s.table() != null
                ? ModelCatalog.parse(Files.readString(s.table()), s.table().toString()) : syntheticCatalog();
        List<String> workloads = new ArrayList<>(catalog.models().keySet());
        DryRunBackend backend = new DryRunBackend(false, 1_000);
        try (EmbeddedController c = EmbeddedController.builder().topology(topo).table(catalog)
                .backend(backend, true).journal(journal, s.fsync(), 20).grpcThreads(s.grpcThreads())
                .leaseTimeout(Duration.ofMinutes(10)).levelPer(s.levelPer()).build()) {
            c.start();
            ManagedChannel ch = EventPaths.channel(c.target());
            List<ManagedChannel> clientChannels = new ArrayList<>();
            for (int i = 0; i < s.clients(); i++) {
                clientChannels.add(EventPaths.channel(c.target())); // each plugin process has a connection of its own
            }
            try {
                out.printf("saba controller bench: %d apps, %d connections, topology %s (%d hosts), journal %s "
                        + "(fsync %s), gRPC threads %s, %d clients with a %.2f ms linger, level per %s, collectors %s; "
                        + "load average before: %s%n",
                        s.apps(), s.connections(), s.shape(), ips.size(), journal, s.fsync(),
                        s.grpcThreads() <= 0 ? "direct" : s.grpcThreads(), s.clients(), s.linger().toNanos() / 1e6,
                        s.levelPer().name().toLowerCase(java.util.Locale.ROOT), ProcessFigures.collectors(), ProcessFigures.loadAverage());
                register(ch, workloads);
                List<ConnectionEvent> opens = connections(ips);
                Metrics m = c.controller().metrics();

                int quarter = opens.size() / 4;
                List<List<ConnectionEvent>> parts = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    parts.add(opens.subList(i * quarter, i == 3 ? opens.size() : (i + 1) * quarter));
                }

                warmUp(c, ch, clientChannels, opens.subList(0, Math.min(opens.size(), WARM_UP_EVENTS)));
                m.pushLag.cumulative(); // drain what the warm-up recorded
                long roundsBefore = m.recomputations.sum();
                long eventsBefore = m.connectionEvents.sum();
                long recomputeCpuBefore = ProcessFigures.recomputeCpuNanos();

                String[] keys = {"unary-closed", "unary-open", "client-open", "batched"};
                String[] what = {"unary calls, closed loop, " + s.inFlight() + " in flight",
                        "unary calls, open loop, offered at " + s.rate() + "/s",
                        "client library's path, open loop, offered at " + s.rate() + "/s (" + s.clients()
                                + " clients, event -> ack)",
                        "batched ReportConnections, " + s.batch() + " events/call, 4 in flight"};
                Phase[] phases = new Phase[EventPaths.COUNT];
                for (int i = 0; i < EventPaths.COUNT; i++) {
                    phases[i] = phase(c, i, ch, clientChannels, parts.get(i), true);
                }
                long connectionsOpen = c.controller().connectionCount();
                registerLate(c, ch, workloads, connectionsOpen);
                for (int i = 0; i < EventPaths.COUNT; i++) {
                    phases[i] = phases[i].plus(phase(c, i, ch, clientChannels, parts.get(i), false));
                }
                out.printf("connections open at peak: %d; after closing all: %d%n", connectionsOpen,
                        c.controller().connectionCount());
                List<ControllerBenchTable.Row> rows = new ArrayList<>();
                for (int i = 0; i < EventPaths.COUNT; i++) {
                    rows.add(phases[i].row(keys[i], what[i]));
                }
                table.print(rows);
                Phase client = phases[2];
                out.printf("client library's path, per ReportConnections call: %.1f events/call; call latency "
                                + "p50 %.3f ms, p99 %.3f ms, max %.3f ms%n", client.events() / (double) client.calls(),
                        ControllerBenchTable.ms(client.rpc(), 50), ControllerBenchTable.ms(client.rpc(), 99),
                        client.rpc().getMaxValue() / 1e6);
                out.printf("recomputations: %d rounds for %d events (after warm-up); backend pushes in all: %d "
                        + "(%d port configurations)%n", m.recomputations.sum() - roundsBefore,
                        m.connectionEvents.sum() - eventsBefore, m.backendPushes.sum(), backend.pushes());
                out.printf("recompute thread CPU (after warm-up): %.1f s%n",
                        (ProcessFigures.recomputeCpuNanos() - recomputeCpuBefore) / 1e9);
                out.printf("load average after: %s%n", ProcessFigures.loadAverage());
                if (!baseline.isEmpty()) {
                    table.printComparison(rows, s.baseline(), baseline);
                }
            } finally {
                for (ManagedChannel cc : clientChannels) {
                    cc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
                }
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    /** The phases of an earlier run's output, as {@link ControllerBenchTable#readBaseline} reads them. */
    static Map<String, double[]> readBaseline(Path file) throws java.io.IOException {
        return ControllerBenchTable.readBaseline(file);
    }

    /**
     * Runs every phase's path, opens then closes, over the first {@link #WARM_UP_EVENTS} events, until the JIT
     * compilers are quiet ({@link WarmUp}); not counted. After a single pass the push lag on the client library's
     * path measures the JIT compiling gRPC's paths as much as the controller.
     */
    private void warmUp(EmbeddedController c, ManagedChannel ch, List<ManagedChannel> clientChannels,
                        List<ConnectionEvent> warm) throws Exception {
        WarmUp.untilJitQuiet(() -> {
            for (int path = 0; path < EventPaths.COUNT; path++) {
                paths.send(path, ch, clientChannels, warm, true);
                paths.send(path, ch, clientChannels, warm, false);
            }
            awaitQuiet(c);
        }, MAX_WARM_UP_PASSES, out);
    }

    /** One phase (its opens or its closes) run, then waited on until every change is pushed. */
    private Phase phase(EmbeddedController c, int which, ManagedChannel ch, List<ManagedChannel> clientChannels,
                        List<ConnectionEvent> events, boolean open) throws Exception {
        Metrics m = c.controller().metrics();
        Histogram lagBefore = m.pushLag.cumulative();
        long rounds0 = m.recomputeSeconds.count();
        long roundNanos0 = m.recomputeSeconds.sumNanos();
        long recompute0 = ProcessFigures.recomputeCpuNanos();
        long[] gc0 = ProcessFigures.gc();
        Map<String, Long> byThread0 = cpuByThread.reading();
        Map<String, Long> bytes0 = cpuByThread.allocated();
        long cpu0 = ProcessFigures.processCpuNanos();
        long t0 = System.nanoTime();
        EventPaths.Sent sent = paths.send(which, ch, clientChannels, events, open);
        long acked = System.nanoTime();
        awaitQuiet(c);
        long pushed = System.nanoTime();
        long cpu = ProcessFigures.processCpuNanos() - cpu0;
        Map<String, Long> byThread = CpuByThread.minus(cpuByThread.reading(), byThread0);
        Map<String, Long> bytes = CpuByThread.minus(cpuByThread.allocated(), bytes0);
        long[] gc1 = ProcessFigures.gc();
        Histogram lag = m.pushLag.cumulative();
        lag.subtract(lagBefore);
        return new Phase(events.size(), acked - t0, pushed - t0, sent.latency(), sent.rpc(), sent.calls(), cpu,
                ProcessFigures.recomputeCpuNanos() - recompute0, lag, gc1[0] - gc0[0], gc1[1] - gc0[1], byThread,
                bytes, m.recomputeSeconds.count() - rounds0, m.recomputeSeconds.sumNanos() - roundNanos0);
    }

    /** A phase's measurements; its opens and its closes are added up. */
    private record Phase(long events, long ackNanos, long pushedNanos, Histogram latency, Histogram rpc,
                         long calls, long cpuNanos, long recomputeNanos, Histogram lag, long gcCount,
                         long gcMillis, Map<String, Long> cpuByThread, Map<String, Long> bytesByThread,
                         long rounds, long roundNanos) {
        Phase plus(Phase o) {
            return new Phase(events + o.events, ackNanos + o.ackNanos, pushedNanos + o.pushedNanos,
                    sum(latency, o.latency), sum(rpc, o.rpc), calls + o.calls, cpuNanos + o.cpuNanos,
                    recomputeNanos + o.recomputeNanos, sum(lag, o.lag), gcCount + o.gcCount, gcMillis + o.gcMillis,
                    CpuByThread.plus(cpuByThread, o.cpuByThread), CpuByThread.plus(bytesByThread, o.bytesByThread),
                    rounds + o.rounds, roundNanos + o.roundNanos);
        }

        private static Histogram sum(Histogram a, Histogram b) {
            Histogram h = a.copy();
            h.add(b);
            return h;
        }

        ControllerBenchTable.Row row(String key, String what) {
            Map<String, Double> perEvent = new LinkedHashMap<>();
            cpuByThread.forEach((kind, nanos) -> perEvent.put(kind, nanos / 1e3 / events));
            Map<String, Double> kbPerEvent = new LinkedHashMap<>();
            bytesByThread.forEach((kind, b) -> kbPerEvent.put(kind, b / 1e3 / events));
            long steady = cpuNanos - cpuByThread.getOrDefault(CpuByThread.JIT, 0L); // compiling is a one-off
            return new ControllerBenchTable.Row(key, what, events, events / (ackNanos / 1e9),
                    events / (pushedNanos / 1e9), latency, steady / 1e3 / events, recomputeNanos / 1e3 / events, lag,
                    gcCount, gcMillis, perEvent, kbPerEvent, rounds, rounds == 0 ? 0 : roundNanos / 1e6 / rounds);
        }
    }

    /** Ten workloads D(b) = 1 + a (1 - b)^2, a from a fixed seed: the table the benchmarks use by default. */
    public static ModelCatalog syntheticCatalog() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        Random r = new Random(7);
        for (int i = 0; i < 10; i++) {
            double a = 0.5 + 4 * r.nextDouble();
            m.put("w" + i, SensitivityModel.of(1 + a, -2 * a, a)); // D(b) = 1 + a (1 - b)^2
        }
        return new ModelCatalog(m);
    }

    private void register(ManagedChannel ch, List<String> workloads) {
        ControllerGrpc.ControllerBlockingStub stub = ControllerGrpc.newBlockingStub(ch);
        long t0 = System.nanoTime();
        for (int i = 0; i < s.apps(); i++) {
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).register(RegisterRequest.newBuilder().setAppId("app-" + i)
                    .setWorkload(workloads.get(i % workloads.size())).setFramework("bench").setUser("bench").build());
        }
        out.printf("registered %d applications in %.1f ms%n", s.apps(), (System.nanoTime() - t0) / 1e6);
    }

    /**
     * Registers {@link #LATE_APPS} more applications one at a time while {@code open} connections are open, and prints
     * each call's latency and the recomputation CPU they cost until the controller is quiet: with a level per
     * application every registration re-plans the levels of every port in use.
     */
    private void registerLate(EmbeddedController c, ManagedChannel ch, List<String> workloads, long open)
            throws InterruptedException {
        ControllerGrpc.ControllerBlockingStub stub = ControllerGrpc.newBlockingStub(ch);
        Histogram calls = new Histogram(3);
        long cpu0 = ProcessFigures.recomputeCpuNanos();
        long t0 = System.nanoTime();
        for (int i = 0; i < LATE_APPS; i++) {
            long t = System.nanoTime();
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).register(RegisterRequest.newBuilder().setAppId("late-" + i)
                    .setWorkload(workloads.get(i % workloads.size())).setFramework("bench").setUser("bench").build());
            calls.recordValue(System.nanoTime() - t);
        }
        awaitQuiet(c);
        out.printf("registered %d more applications with %d connections open: call p50 %.2f ms, p99 %.2f ms; "
                        + "%.1f ms until quiet, recompute CPU %.1f ms%n", LATE_APPS, open,
                ControllerBenchTable.ms(calls, 50), ControllerBenchTable.ms(calls, 99),
                (System.nanoTime() - t0) / 1e6, (ProcessFigures.recomputeCpuNanos() - cpu0) / 1e6);
    }

    private List<ConnectionEvent> connections(List<String> ips) {
        Random r = new Random(42);
        List<ConnectionEvent> out = new ArrayList<>(s.connections());
        for (int i = 0; i < s.connections(); i++) {
            String src = ips.get(r.nextInt(ips.size()));
            String dst = ips.get(r.nextInt(ips.size()));
            out.add(ConnectionEvent.newBuilder().setAppId("app-" + (i % s.apps())).setConnection(
                    Connection.newBuilder().setSrc(Endpoint.newBuilder().setIp(src).setPort(1024 + i % 60_000))
                            .setDst(Endpoint.newBuilder().setIp(dst).setPort(7337)).setTransport(Transport.TCP))
                    .build());
        }
        return out;
    }

    private static void awaitQuiet(EmbeddedController c) throws InterruptedException {
        if (!c.controller().recomputer().awaitQuiescent(Duration.ofMinutes(2))) {
            throw new IllegalStateException("recomputation did not catch up within 2 minutes");
        }
    }
}
