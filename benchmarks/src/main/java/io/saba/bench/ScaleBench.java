package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.table.ModelCatalog;
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
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The controller at scale: registers {@code apps} applications and opens {@code connections}
 * connections over real gRPC (batched, as the plugins send them) on a large topology, then reports the heap the
 * controller holds per application and per connection, the journal's size, and what a restart costs: the journal's
 * replay, and the allocation of every port from the replayed state until the backend holds it.
 *
 * <p>Heap is measured in this process after full collections: the bench builds each batch of events when it sends
 * it and keeps none, so what stays reachable is the controller's (plus gRPC's and the JVM's fixed share, which the
 * measurement before registration takes out).
 */
public final class ScaleBench {
    /** Settings; defaults are the target: 10,000 applications, 1,000,000 connections, 3,456 hosts. */
    public record Settings(int apps, int connections, String shape, int batch, Path journalDir, FsyncPolicy fsync) {
    }

    private final Settings s;
    private final PrintStream out;

    public ScaleBench(Settings s, PrintStream out) {
        this.s = s;
        this.out = out;
    }

    public void run() throws Exception {
        Path journal = s.journalDir() != null ? s.journalDir() : Files.createTempDirectory("saba-scale-journal");
        TopologyResolver topo = topology();
        List<String> ips = new ArrayList<>(topo.addresses().keySet());
        ips.sort(String::compareTo);
        ModelCatalog catalog = ControllerBench.syntheticCatalog();
        List<String> workloads = new ArrayList<>(catalog.models().keySet());
        out.printf("saba controller scale-bench: %d applications, %d connections, topology %s (%d hosts), journal %s "
                        + "(fsync %s); max heap %d MiB; load average before: %s%n", s.apps(), s.connections(),
                s.shape(), ips.size(), journal, s.fsync(), Runtime.getRuntime().maxMemory() >> 20,
                ProcessFigures.loadAverage());
        long heapBase = usedHeapAfterGc();
        long heapApps;
        long heapConnections;
        long ports;
        try (EmbeddedController c = controller(topo, catalog, journal)) {
            c.start();
            ManagedChannel ch = NettyChannelBuilder.forTarget(c.target()).usePlaintext().directExecutor().build();
            try {
                Timed reg = timed(() -> register(ch, workloads));
                heapApps = usedHeapAfterGc();
                out.printf("registered %,d applications in %.1f s (%.1f s CPU)%n", s.apps(), reg.wallSeconds(),
                        reg.cpuSeconds());
                Timed open = timed(() -> open(ch, ips));
                Timed pushed = timed(() -> awaitQuiet(c));
                ports = c.controller().recomputer().current().size();
                out.printf("opened %,d connections in %.1f s (%,.0f events/s acknowledged; %.1f s CPU), every port "
                                + "pushed %.1f s later: %,d ports configured%n", c.controller().connectionCount(),
                        open.wallSeconds(), s.connections() / open.wallSeconds(), open.cpuSeconds() + pushed.cpuSeconds(),
                        pushed.wallSeconds(), ports);
                heapConnections = usedHeapAfterGc();
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
        long journalBytes = sizeOf(journal);
        out.printf("heap held: %.1f MiB in all; %,.1f bytes per application, %,.1f bytes per connection (after full "
                        + "collections; the JVM's and gRPC's own before registration, %.1f MiB, taken out)%n",
                (heapConnections - heapBase) / 1048576.0, (heapApps - heapBase) / (double) s.apps(),
                (heapConnections - heapApps) / (double) s.connections(), heapBase / 1048576.0);
        out.printf("journal: %.1f MiB, %.0f bytes per event written (%,d registrations and %,d opens)%n",
                journalBytes / 1048576.0, journalBytes / (double) (s.apps() + s.connections()), s.apps(),
                s.connections());
        long heapBeforeRestart = usedHeapAfterGc();
        try (EmbeddedController c = controller(topo, catalog, journal)) {
            Timed replay = timed(c::start);
            long restored = c.controller().connectionCount();
            Timed rebuilt = timed(() -> awaitQuiet(c));
            long portsAfter = c.controller().recomputer().current().size();
            out.printf("restart: the journal replayed in %.1f s (%.1f s CPU): %,d applications, %,d connections; every "
                            + "port allocated and pushed %.1f s later (%.1f s CPU): %,d ports%s%n",
                    replay.wallSeconds(), replay.cpuSeconds(), c.controller().appCount(), restored,
                    rebuilt.wallSeconds(), rebuilt.cpuSeconds(), portsAfter,
                    restored == s.connections() && portsAfter == ports ? "" : " (DIFFERS from before the restart)");
            out.printf("heap held after the restart: %.1f MiB (before it, with the first controller closed: %.1f MiB)%n",
                    (usedHeapAfterGc() - heapBase) / 1048576.0, (heapBeforeRestart - heapBase) / 1048576.0);
        }
        out.printf("load average after: %s%n", ProcessFigures.loadAverage());
    }

    private TopologyResolver topology() throws IOException {
        return TopologyLoader.fromNode(
                BenchTopology.shaped(s.shape()).put("gbps", 100).put("queues", 8), "scale-bench", null);
    }

    private EmbeddedController controller(TopologyResolver topo, ModelCatalog catalog, Path journal) {
        return EmbeddedController.builder().topology(topo).table(catalog)
                .backend(new DryRunBackend(false, 1_000), true).journal(journal, s.fsync(), 20).grpcThreads(2)
                .leaseTimeout(Duration.ofHours(1)).build();
    }

    private void register(ManagedChannel ch, List<String> workloads) {
        ControllerGrpc.ControllerBlockingStub stub = ControllerGrpc.newBlockingStub(ch);
        for (int i = 0; i < s.apps(); i++) {
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).register(RegisterRequest.newBuilder().setAppId("app-" + i)
                    .setWorkload(workloads.get(i % workloads.size())).setFramework("bench").setUser("bench").build());
        }
    }

    /** Opens every connection in batches, 4 calls in flight; each batch is built when sent and then dropped. */
    private void open(ManagedChannel ch, List<String> ips) throws InterruptedException {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(4);
        AtomicLong failed = new AtomicLong();
        int calls = (s.connections() + s.batch() - 1) / s.batch();
        CountDownLatch done = new CountDownLatch(calls);
        for (int from = 0; from < s.connections(); from += s.batch()) {
            ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
            for (int i = from; i < Math.min(s.connections(), from + s.batch()); i++) {
                b.addEvents(BatchedEvent.newBuilder().setOpen(true).setEvent(event(i, ips)));
            }
            slots.acquire();
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).reportConnections(b.build(), new StreamObserver<>() {
                @Override
                public void onNext(EventAck ack) {
                    failed.addAndGet(ack.getRejected());
                }

                @Override
                public void onError(Throwable t) {
                    failed.addAndGet(1);
                    slots.release();
                    done.countDown();
                }

                @Override
                public void onCompleted() {
                    slots.release();
                    done.countDown();
                }
            });
        }
        done.await();
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " events or calls failed: the figures would not describe "
                    + s.connections() + " connections");
        }
    }

    /**
     * Connection {@code i}: application i mod apps, between two hosts drawn from i (a fixed mix, so every run sees
     * the same state), its ports from i, so no two connections are the same.
     */
    private ConnectionEvent event(int i, List<String> ips) {
        long h = mix(i);
        String src = ips.get((int) Long.remainderUnsigned(h, ips.size()));
        String dst = ips.get((int) Long.remainderUnsigned(h >>> 32, ips.size()));
        return ConnectionEvent.newBuilder().setAppId("app-" + i % s.apps()).setConnection(Connection.newBuilder()
                        .setSrc(Endpoint.newBuilder().setIp(src).setPort(1024 + i % 60_000))
                        .setDst(Endpoint.newBuilder().setIp(dst).setPort(7337 + i / 60_000)).setTransport(Transport.TCP))
                .build();
    }

    private static long mix(long x) { // SplitMix64's finaliser: a cheap, well-spread hash of the index
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    private static void awaitQuiet(EmbeddedController c) throws InterruptedException {
        if (!c.controller().recomputer().awaitQuiescent(Duration.ofMinutes(10))) {
            throw new IllegalStateException("recomputation did not catch up within 10 minutes");
        }
    }

    /**
     * Heap in use once full collections have freed what they can: collected until three readings in a row agree
     * within 1 MiB (threads a closed controller stops may still hold its state for a moment).
     */
    static long usedHeapAfterGc() throws InterruptedException {
        var mem = ManagementFactory.getMemoryMXBean();
        long last = Long.MAX_VALUE;
        int agreeing = 0;
        for (int i = 0; i < 30 && agreeing < 2; i++) {
            System.gc();
            Thread.sleep(200);
            long used = mem.getHeapMemoryUsage().getUsed();
            agreeing = Math.abs(used - last) < (1 << 20) ? agreeing + 1 : 0;
            last = used;
        }
        return last;
    }

    private static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private record Timed(double wallSeconds, double cpuSeconds) {
    }

    private static Timed timed(Step step) throws Exception {
        long cpu0 = ProcessFigures.processCpuNanos();
        long t0 = System.nanoTime();
        step.run();
        return new Timed((System.nanoTime() - t0) / 1e9, (ProcessFigures.processCpuNanos() - cpu0) / 1e9);
    }
}
