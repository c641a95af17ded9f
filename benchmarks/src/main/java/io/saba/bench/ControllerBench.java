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
import java.io.PrintStream;
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
 * {@code connections} connections with real gRPC calls, in three phases:
 * <ol>
 *   <li>closed loop, unary ConnectionOpened/Closed with a fixed number of calls in flight: the sustained rate;</li>
 *   <li>open loop, unary calls sent on a fixed schedule (default 20,000/s): p99 latency measured from each call's
 *       intended send time, so a stall is charged to every call it delayed (no coordinated omission);</li>
 *   <li>batched ReportConnections, as SabaClient sends them: the rate the library path sustains.</li>
 * </ol>
 * The controller runs in-process with the journal on (fsync every 20 ms) and the dry-run backend; the lag from an
 * event to the backend push is the controller's own histogram.
 */
public final class ControllerBench {
    /** Settings; defaults are the target workload. */
    public record Settings(int apps, int connections, int inFlight, int rate, int batch, String shape,
                           Path journalDir, Path table, FsyncPolicy fsync, int grpcThreads) {
        public static Settings defaults() {
            return new Settings(1_000, 100_000, 32, 20_000, 500, "fat-tree:16", null, null, FsyncPolicy.INTERVAL,
                    2);
        }
    }

    private final Settings s;
    private final PrintStream out;

    public ControllerBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        Settings d = Settings.defaults();
        Map<String, String> a = new java.util.HashMap<>();
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            a.put(kv[0].replaceFirst("^--", ""), kv.length > 1 ? kv[1] : "");
        }
        Settings s = new Settings(Integer.parseInt(a.getOrDefault("apps", "" + d.apps())),
                Integer.parseInt(a.getOrDefault("connections", "" + d.connections())),
                Integer.parseInt(a.getOrDefault("in-flight", "" + d.inFlight())),
                Integer.parseInt(a.getOrDefault("rate", "" + d.rate())),
                Integer.parseInt(a.getOrDefault("batch", "" + d.batch())), a.getOrDefault("shape", d.shape()),
                a.containsKey("journal-dir") ? Path.of(a.get("journal-dir")) : null,
                a.containsKey("table") ? Path.of(a.get("table")) : null,
                FsyncPolicy.valueOf(a.getOrDefault("fsync", "interval").toUpperCase(java.util.Locale.ROOT)),
                Integer.parseInt(a.getOrDefault("grpc-threads", "" + d.grpcThreads())));
        new ControllerBench(s, System.out).run();
    }

    public void run() throws Exception {
        Path journal = s.journalDir() != null ? s.journalDir() : Files.createTempDirectory("saba-bench-journal");
        var yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        TopologyResolver topo = TopologyLoader.fromNode(yaml.readTree("{shape: '" + s.shape()
                + "', gbps: 100, queues: 8, address-base: 10.0.0.1}"), "bench", null);
        List<String> ips = new ArrayList<>(topo.addresses().keySet());
        ips.sort(String::compareTo);
        ModelCatalog catalog = s.table() != null
                ? ModelCatalog.parse(Files.readString(s.table()), s.table().toString()) : syntheticCatalog();
        List<String> workloads = new ArrayList<>(catalog.models().keySet());
        DryRunBackend backend = new DryRunBackend(false, 1_000);
        try (EmbeddedController c = EmbeddedController.builder().topology(topo).table(catalog)
                .backend(backend, true).journal(journal, s.fsync(), 20)
                .leaseTimeout(Duration.ofMinutes(10)).build()) {
            c.start();
            // callbacks only count and release a permit: run them on the transport thread
            ManagedChannel ch = NettyChannelBuilder.forTarget(c.target()).usePlaintext().directExecutor()
                    .maxInboundMessageSize(64 << 20).build();
            try {
                out.printf("saba controller bench: %d apps, %d connections, topology %s (%d hosts), journal %s "
                        + "(fsync %s), gRPC threads %s; load average before: %s%n", s.apps(), s.connections(),
                        s.shape(), ips.size(), journal, s.fsync(), s.grpcThreads() <= 0 ? "direct" : s.grpcThreads(),
                        loadAverage());
                register(ch, workloads);
                List<ConnectionEvent> opens = connections(ips);
                Metrics m = c.controller().metrics();

                int third = opens.size() / 3;
                List<ConnectionEvent> p1 = opens.subList(0, third);
                List<ConnectionEvent> p2 = opens.subList(third, 2 * third);
                List<ConnectionEvent> p3 = opens.subList(2 * third, opens.size());

                // warm-up (not counted): lets the JIT compile the hot paths on both sides, whose CPU would
                // otherwise be charged to the first phase
                List<ConnectionEvent> warm = opens.subList(0, Math.min(opens.size(), 20_000));
                closedLoop(ch, warm, true);
                batched(ch, warm, false);
                closedLoop(ch, warm, true);
                closedLoop(ch, warm, false);
                awaitQuiet(c);
                m.pushLag.cumulative(); // drain what the warm-up recorded
                long roundsBefore = m.recomputations.sum();
                long eventsBefore = m.connectionEvents.sum();
                long recomputeCpuBefore = recomputeCpuNanos();
                Histogram lagBefore = m.pushLag.cumulative();

                Result closed = closedLoop(ch, p1, true);
                awaitQuiet(c);
                Result open = openLoop(ch, p2, true);
                awaitQuiet(c);
                Result batched = batched(ch, p3, true);
                awaitQuiet(c);
                long connectionsOpen = c.controller().connectionCount();
                Result closedClose = closedLoop(ch, p1, false);
                Result openClose = openLoop(ch, p2, false);
                Result batchedClose = batched(ch, p3, false);
                awaitQuiet(c);

                out.printf("connections open at peak: %d; after closing all: %d%n", connectionsOpen,
                        c.controller().connectionCount());
                print("closed loop, unary, " + s.inFlight() + " in flight", closed.plus(closedClose));
                print("open loop, unary, scheduled at " + s.rate() + "/s", open.plus(openClose));
                print("batched ReportConnections (" + s.batch() + " events/call)", batched.plus(batchedClose));
                Histogram lag = m.pushLag.cumulative();
                lag.subtract(lagBefore);
                out.printf("event -> backend push lag: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                        lag.getValueAtPercentile(50) / 1e6, lag.getValueAtPercentile(99) / 1e6,
                        lag.getMaxValue() / 1e6);
                out.printf("recomputations: %d rounds for %d events (after warm-up); backend pushes in all: %d "
                        + "(%d port configurations)%n", m.recomputations.sum() - roundsBefore,
                        m.connectionEvents.sum() - eventsBefore, m.backendPushes.sum(), backend.pushes());
                out.printf("recompute thread CPU (after warm-up): %.1f s%n",
                        (recomputeCpuNanos() - recomputeCpuBefore) / 1e9);
                out.printf("load average after: %s%n", loadAverage());
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
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

    private static ModelCatalog syntheticCatalog() {
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

    /** Events, wall time, and per-call latency. */
    /** Events, wall time, per-call latency, and the process CPU time the phase used (client and server). */
    record Result(long events, long nanos, Histogram latency, long cpuNanos) {
        Result plus(Result o) {
            Histogram h = latency.copy();
            h.add(o.latency);
            return new Result(events + o.events, nanos + o.nanos, h, cpuNanos + o.cpuNanos);
        }
    }

    /** Process CPU time: on a shared machine wall-clock rates mostly measure the neighbours; CPU per event does not. */
    static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() : 0;
    }

    /** CPU time of the recompute thread so far. */
    static long recomputeCpuNanos() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("saba-recompute")) {
                return threads.getThreadCpuTime(t.getId());
            }
        }
        return 0;
    }

    private void print(String name, Result r) {
        out.printf("%-48s %8.0f events/s; RPC latency p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms; "
                        + "CPU %.1f us/event (client+server+recompute)%n",
                name + ":", r.events() / (r.nanos() / 1e9), r.latency().getValueAtPercentile(50) / 1e6,
                r.latency().getValueAtPercentile(99) / 1e6, r.latency().getValueAtPercentile(99.9) / 1e6,
                r.latency().getMaxValue() / 1e6, r.cpuNanos() / 1e3 / r.events());
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

    private Result closedLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(s.inFlight());
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
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
        long nanos = System.nanoTime() - t0;
        check(errors);
        return new Result(events.size(), nanos, rec.getIntervalHistogram(), processCpuNanos() - cpu0);
    }

    private Result openLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        Semaphore cap = new Semaphore(10_000); // a bound on memory, far above what the target rate needs
        long interval = 1_000_000_000L / s.rate();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        for (int i = 0; i < events.size(); i++) {
            long intended = t0 + i * interval;
            long wait;
            while ((wait = intended - System.nanoTime()) > 0) {
                if (wait > 200_000) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait - 100_000); // sleep, do not burn the CPU
                } else {
                    Thread.onSpinWait();
                }
            }
            cap.acquire();
            call(stub, open, events.get(i), new Done(() -> {
                rec.recordValue(System.nanoTime() - intended);
                cap.release();
                done.countDown();
            }, errors));
        }
        done.await();
        long nanos = System.nanoTime() - t0;
        check(errors);
        return new Result(events.size(), nanos, rec.getIntervalHistogram(), processCpuNanos() - cpu0);
    }

    private Result batched(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(4);
        Recorder rec = new Recorder(3);
        int calls = (events.size() + s.batch() - 1) / s.batch();
        CountDownLatch done = new CountDownLatch(calls);
        AtomicLong errors = new AtomicLong();
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
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
        long nanos = System.nanoTime() - t0;
        check(errors);
        return new Result(events.size(), nanos, rec.getIntervalHistogram(), processCpuNanos() - cpu0);
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
