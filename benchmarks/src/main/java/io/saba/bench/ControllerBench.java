package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.Metrics;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.model.SensitivityModel;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.EventAck;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

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
 */
public final class ControllerBench {
    /** Events each warm-up pass sends through every path, at most. */
    static final int WARM_UP_EVENTS = 20_000;
    static final int MAX_WARM_UP_PASSES = 10;

    /** Settings of one run: {@code saba controller bench}'s options. */
    public record Settings(int apps, int connections, int inFlight, int rate, int batch, String shape,
                           Path journalDir, Path table, FsyncPolicy fsync, int grpcThreads, int clients,
                           Duration linger, Path baseline) {
    }

    private final Settings s;
    private final PrintStream out;
    private final CpuByThread cpuByThread = new CpuByThread();

    public ControllerBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
    }

    /** One phase's figures: what the table prints and a baseline is read back from. */
    record Row(String key, String what, long events, double eventsPerSecond, double pushedPerSecond, Histogram latency,
               double cpuMicrosPerEvent, double recomputeMicrosPerEvent, Histogram lag, long gcCount,
               long gcMillis, Map<String, Double> cpuMicrosByThread, Map<String, Double> kilobytesByThread,
               long rounds, double meanRoundMillis) {
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
                .leaseTimeout(Duration.ofMinutes(10)).build()) {
            c.start();
            // callbacks only count and release a permit: run them on the transport thread
            ManagedChannel ch = channel(c.target());
            List<ManagedChannel> clientChannels = new ArrayList<>();
            for (int i = 0; i < s.clients(); i++) {
                clientChannels.add(channel(c.target())); // each plugin process has a connection of its own
            }
            try {
                out.printf("saba controller bench: %d apps, %d connections, topology %s (%d hosts), journal %s "
                        + "(fsync %s), gRPC threads %s, %d clients with a %.2f ms linger, collectors %s; load average before: %s%n",
                        s.apps(), s.connections(), s.shape(), ips.size(), journal, s.fsync(),
                        s.grpcThreads() <= 0 ? "direct" : s.grpcThreads(), s.clients(), s.linger().toNanos() / 1e6,
                        collectors(), loadAverage());
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
                long recomputeCpuBefore = recomputeCpuNanos();

                String[] keys = {"unary-closed", "unary-open", "client-open", "batched"};
                String[] what = {"unary calls, closed loop, " + s.inFlight() + " in flight",
                        "unary calls, open loop, offered at " + s.rate() + "/s",
                        "client library's path, open loop, offered at " + s.rate() + "/s (" + s.clients()
                                + " clients, event -> ack)",
                        "batched ReportConnections, " + s.batch() + " events/call, 4 in flight"};
                Phase[] phases = new Phase[4];
                for (int i = 0; i < 4; i++) {
                    phases[i] = phase(c, i, ch, clientChannels, parts.get(i), true);
                }
                long connectionsOpen = c.controller().connectionCount();
                for (int i = 0; i < 4; i++) {
                    phases[i] = phases[i].plus(phase(c, i, ch, clientChannels, parts.get(i), false));
                }
                out.printf("connections open at peak: %d; after closing all: %d%n", connectionsOpen,
                        c.controller().connectionCount());
                List<Row> rows = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    rows.add(phases[i].row(keys[i], what[i]));
                }
                printRows(rows);
                Phase client = phases[2];
                out.printf("client library's path, per ReportConnections call: %.1f events/call; call latency "
                                + "p50 %.3f ms, p99 %.3f ms, max %.3f ms%n", client.events() / (double) client.calls(),
                        ms(client.rpc(), 50), ms(client.rpc(), 99), client.rpc().getMaxValue() / 1e6);
                out.printf("recomputations: %d rounds for %d events (after warm-up); backend pushes in all: %d "
                        + "(%d port configurations)%n", m.recomputations.sum() - roundsBefore,
                        m.connectionEvents.sum() - eventsBefore, m.backendPushes.sum(), backend.pushes());
                out.printf("recompute thread CPU (after warm-up): %.1f s%n",
                        (recomputeCpuNanos() - recomputeCpuBefore) / 1e9);
                out.printf("load average after: %s%n", loadAverage());
                if (!baseline.isEmpty()) {
                    printComparison(rows, baseline);
                }
            } finally {
                for (ManagedChannel cc : clientChannels) {
                    cc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
                }
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Runs every phase's path, opens then closes, over the first {@link #WARM_UP_EVENTS} events, until the JIT
     * compilers are quiet ({@link WarmUp}); not counted. After a single pass the push lag on the client library's
     * path measures the JIT compiling gRPC's paths as much as the controller.
     */
    private void warmUp(EmbeddedController c, ManagedChannel ch, List<ManagedChannel> clientChannels,
                        List<ConnectionEvent> warm) throws Exception {
        WarmUp.untilJitQuiet(() -> {
            for (int path = 0; path < 4; path++) {
                send(path, ch, clientChannels, warm, true);
                send(path, ch, clientChannels, warm, false);
            }
            awaitQuiet(c);
        }, MAX_WARM_UP_PASSES, out);
    }

    /** The events through one phase's path (0-3: the phases' order). */
    private Sent send(int path, ManagedChannel ch, List<ManagedChannel> clientChannels, List<ConnectionEvent> events,
                      boolean open) throws Exception {
        return switch (path) {
            case 0 -> closedLoop(ch, events, open);
            case 1 -> openLoop(ch, events, open);
            case 2 -> clientPath(clientChannels, events, open);
            default -> batched(ch, events, open);
        };
    }

    /** The garbage collectors in use (their pauses are in the latency tails; printed with the figures). */
    static String collectors() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(g.getName());
        }
        return String.join(", ", names);
    }

    private static ManagedChannel channel(String target) {
        return NettyChannelBuilder.forTarget(target).usePlaintext().directExecutor().maxInboundMessageSize(64 << 20)
                .build();
    }

    /** One phase (its opens or its closes) run, then waited on until every change is pushed. */
    private Phase phase(EmbeddedController c, int which, ManagedChannel ch, List<ManagedChannel> clientChannels,
                        List<ConnectionEvent> events, boolean open) throws Exception {
        Metrics m = c.controller().metrics();
        Histogram lagBefore = m.pushLag.cumulative();
        long rounds0 = m.recomputeSeconds.count();
        long roundNanos0 = m.recomputeSeconds.sumNanos();
        long recompute0 = recomputeCpuNanos();
        long[] gc0 = gc();
        Map<String, Long> byThread0 = cpuByThread.reading();
        Map<String, Long> bytes0 = cpuByThread.allocated();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        Sent sent = send(which, ch, clientChannels, events, open);
        long acked = System.nanoTime();
        awaitQuiet(c);
        long pushed = System.nanoTime();
        long cpu = processCpuNanos() - cpu0;
        Map<String, Long> byThread = CpuByThread.minus(cpuByThread.reading(), byThread0);
        Map<String, Long> bytes = CpuByThread.minus(cpuByThread.allocated(), bytes0);
        long[] gc1 = gc();
        Histogram lag = m.pushLag.cumulative();
        lag.subtract(lagBefore);
        return new Phase(events.size(), acked - t0, pushed - t0, sent.latency(), sent.rpc(), sent.calls(), cpu,
                recomputeCpuNanos() - recompute0, lag, gc1[0] - gc0[0], gc1[1] - gc0[1], byThread, bytes,
                m.recomputeSeconds.count() - rounds0, m.recomputeSeconds.sumNanos() - roundNanos0);
    }

    /** What a phase's senders measured: per-event (or per-call) latency, per-call latency, calls made. */
    private record Sent(Histogram latency, Histogram rpc, long calls) {
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

        Row row(String key, String what) {
            Map<String, Double> perEvent = new LinkedHashMap<>();
            cpuByThread.forEach((kind, nanos) -> perEvent.put(kind, nanos / 1e3 / events));
            Map<String, Double> kbPerEvent = new LinkedHashMap<>();
            bytesByThread.forEach((kind, b) -> kbPerEvent.put(kind, b / 1e3 / events));
            long steady = cpuNanos - cpuByThread.getOrDefault(CpuByThread.JIT, 0L); // compiling is a one-off
            return new Row(key, what, events, events / (ackNanos / 1e9), events / (pushedNanos / 1e9), latency,
                    steady / 1e3 / events, recomputeNanos / 1e3 / events, lag, gcCount, gcMillis, perEvent,
                    kbPerEvent, rounds, rounds == 0 ? 0 : roundNanos / 1e6 / rounds);
        }
    }

    private static final String HEADER = String.format("%-13s %9s %9s %8s %8s %8s %8s %8s %8s %8s %8s %6s %7s",
            "phase", "events/s", "pushed/s", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "CPU us", "recomp",
            "lag p50", "lag p99", "GCs", "GC ms");

    private void printRows(List<Row> rows) {
        out.println();
        for (Row r : rows) {
            out.printf("%-13s %s%n", r.key(), r.what());
        }
        out.println("(events/s: acknowledged; pushed/s: until every change was pushed; latency per call, or per event "
                + "for client-open; CPU and recomp: process CPU (the JIT compilers' left out: a one-off) and "
                + "recompute-thread CPU per event until pushed, us; lag: event -> backend push, ms; GCs and GC ms: "
                + "collections and their pauses)");
        out.println(HEADER);
        for (Row r : rows) {
            out.printf("%-13s %9.0f %9.0f %8.3f %8.3f %8.3f %8.3f %8.1f %8.1f %8.2f %8.2f %6d %7d%n", r.key(),
                    r.eventsPerSecond(), r.pushedPerSecond(), ms(r.latency(), 50), ms(r.latency(), 99),
                    ms(r.latency(), 99.9), r.latency().getMaxValue() / 1e6, r.cpuMicrosPerEvent(),
                    r.recomputeMicrosPerEvent(), ms(r.lag(), 50), ms(r.lag(), 99), r.gcCount(), r.gcMillis());
        }
        out.println();
        printByThread("CPU per event (us) by thread, until pushed (the bench's client threads included):", rows,
                Row::cpuMicrosByThread);
        out.println();
        printByThread("allocated per event (kB) by thread, until pushed:", rows, Row::kilobytesByThread);
        out.println();
        out.println("recompute rounds (each: snapshot, allocate and push the ports dirtied since the last):");
        for (Row r : rows) {
            out.printf("%-13s %6d rounds, %.1f events and %.2f ms each on average%n", r.key(), r.rounds(),
                    r.rounds() == 0 ? 0 : (double) r.events() / r.rounds(), r.meanRoundMillis());
        }
    }

    private void printByThread(String title, List<Row> rows, java.util.function.Function<Row, Map<String, Double>> of) {
        out.println(title);
        StringBuilder head = new StringBuilder(String.format("%-13s", "phase"));
        of.apply(rows.get(0)).keySet().forEach(k -> head.append(String.format(" %14s", k)));
        out.println(head);
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format("%-13s", r.key()));
            of.apply(r).values().forEach(v -> line.append(String.format(" %14.1f", v)));
            out.println(line);
        }
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * The rows of an earlier run's output, by phase key: the numbers after the key, in {@link #HEADER}'s order.
     * Lines that are not rows of the table are skipped.
     */
    static Map<String, double[]> readBaseline(Path file) throws IOException {
        Map<String, double[]> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 13 || !f[0].matches("[a-z]+-?[a-z]*")) {
                continue;
            }
            double[] v = new double[12];
            try {
                for (int i = 0; i < 12; i++) {
                    v[i] = Double.parseDouble(f[i + 1]);
                }
            } catch (NumberFormatException notARow) {
                continue;
            }
            rows.put(f[0], v);
        }
        return rows;
    }

    /** Baseline and now side by side: events/s, p99 latency, CPU per event, p99 lag, and now / baseline. */
    private void printComparison(List<Row> rows, Map<String, double[]> baseline) {
        out.printf("%nbeside the baseline %s (ratio = now / baseline; below 1 is better for latency, CPU and lag, "
                + "above 1 for events/s)%n", s.baseline());
        out.printf("%-13s %-22s %-22s %-22s %-22s %-22s%n", "phase", "events/s", "p99 ms", "CPU us/event",
                "recomp us/event", "lag p99 ms");
        for (Row r : rows) {
            double[] b = baseline.get(r.key());
            if (b == null) {
                out.printf("%-13s (not in the baseline)%n", r.key());
                continue;
            }
            out.printf("%-13s %-22s %-22s %-22s %-22s %-22s%n", r.key(), pair(b[0], r.eventsPerSecond()),
                    pair(b[3], ms(r.latency(), 99)), pair(b[6], r.cpuMicrosPerEvent()),
                    pair(b[7], r.recomputeMicrosPerEvent()), pair(b[9], ms(r.lag(), 99)));
        }
    }

    private static String pair(double before, double now) {
        return String.format("%.4g -> %.4g (%.2fx)", before, now, before == 0 ? Double.NaN : now / before);
    }

    /** The machine's 1-minute load average: figures from a busy machine say so. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0] + " on "
                    + Runtime.getRuntime().availableProcessors() + " cores";
        } catch (java.io.IOException e) {
            return "unknown";
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

    /** Process CPU time: on a shared machine wall-clock rates mostly measure the neighbours; CPU per event does not. */
    static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() : 0;
    }

    /** CPU time of the recompute thread so far. */
    static long recomputeCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("saba-recompute")) {
                return threads.getThreadCpuTime(t.getId());
            }
        }
        return 0;
    }

    /** Garbage collections so far and the milliseconds they took (G1: the pauses). */
    static long[] gc() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, g.getCollectionCount());
            millis += Math.max(0, g.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    private static void call(ControllerGrpc.ControllerStub stub, boolean open, ConnectionEvent e,
                             StreamObserver<EventAck> done) {
        ControllerGrpc.ControllerStub st = stub.withDeadlineAfter(120, TimeUnit.SECONDS);
        if (open) {
            st.connectionOpened(e, done);
        } else {
            st.connectionClosed(e, done);
        }
    }

    private Sent closedLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(s.inFlight());
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        for (ConnectionEvent e : events) {
            slots.acquire();
            long start = System.nanoTime();
            call(stub, open, e, new Done(() -> {
                rec.recordValue(System.nanoTime() - start);
                slots.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, events.size());
    }

    private Sent openLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        Semaphore cap = new Semaphore(10_000); // a bound on memory, far above what the target rate needs
        long interval = 1_000_000_000L / s.rate();
        long t0 = System.nanoTime();
        for (int i = 0; i < events.size(); i++) {
            long intended = t0 + i * interval;
            OfferedLoad.sleepUntil(intended);
            cap.acquire();
            call(stub, open, events.get(i), new Done(() -> {
                rec.recordValue(System.nanoTime() - intended);
                cap.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, events.size());
    }

    /** The client library's path at the offered rate (see {@link OfferedLoad}). */
    private Sent clientPath(List<ManagedChannel> channels, List<ConnectionEvent> events, boolean open)
            throws InterruptedException {
        OfferedLoad.Sent sent = new OfferedLoad(s.rate(), s.linger(), cpuByThread::addEnded).offer(channels, events,
                open);
        if (sent.failed() > 0) {
            out.printf("WARNING: %d calls failed in this phase%n", sent.failed());
        }
        return new Sent(sent.perEvent(), sent.perCall(), sent.calls());
    }

    private Sent batched(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(4);
        Recorder rec = new Recorder(3);
        int calls = (events.size() + s.batch() - 1) / s.batch();
        CountDownLatch done = new CountDownLatch(calls);
        AtomicLong errors = new AtomicLong();
        for (int from = 0; from < events.size(); from += s.batch()) {
            ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
            for (ConnectionEvent e : events.subList(from, Math.min(events.size(), from + s.batch()))) {
                b.addEvents(BatchedEvent.newBuilder().setOpen(open).setEvent(e));
            }
            slots.acquire();
            long start = System.nanoTime();
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).reportConnections(b.build(), new Done(() -> {
                rec.recordValue(System.nanoTime() - start);
                slots.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, calls);
    }

    /** A benchmark reports failures (e.g. deadlines missed on an overloaded machine) rather than dying. */
    private void check(AtomicLong errors) {
        if (errors.get() > 0) {
            out.printf("WARNING: %d calls failed in this phase%n", errors.get());
        }
    }

    private static void awaitQuiet(EmbeddedController c) throws InterruptedException {
        if (!c.controller().recomputer().awaitQuiescent(Duration.ofMinutes(2))) {
            throw new IllegalStateException("recomputation did not catch up within 2 minutes");
        }
    }

    /** Completion callback: counts failures, always runs {@code then}. */
    private static final class Done implements StreamObserver<EventAck> {
        private final Runnable then;
        private final AtomicLong errors;

        Done(Runnable then, AtomicLong errors) {
            this.then = then;
            this.errors = errors;
        }

        @Override
        public void onNext(EventAck v) {
        }

        @Override
        public void onError(Throwable t) {
            if (errors.incrementAndGet() == 1) {
                System.err.println("bench call failed: " + t);
            }
            then.run();
        }

        @Override
        public void onCompleted() {
            then.run();
        }
    }
}
