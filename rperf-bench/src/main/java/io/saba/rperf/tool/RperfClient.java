package io.saba.rperf.tool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs several generators at once against one server: each on its own thread and connection, all in the
 * same {@link RunWindow}. Starts an in-process loopback echo server on 127.0.0.1 for the LSGs' reference
 * requests unless loopback subtraction is off.
 */
public final class RperfClient {
    /** @param iterations per LSG, 0 = run for the window */
    public record Options(InetSocketAddress server, List<GeneratorSpec> generators, double warmupSeconds,
                          double durationSeconds, long iterations, boolean loopback, boolean busyPoll) {
    }

    private RperfClient() {
    }

    public static RunResult run(Options o) throws IOException, InterruptedException {
        RperfServer echo = o.loopback()
                ? RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1) : null;
        ExecutorService pool = Executors.newFixedThreadPool(o.generators().size());
        try {
            InetSocketAddress lb = echo == null ? null
                    : new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.port());
            RunWindow window = new RunWindow(o.generators().size(), o.warmupSeconds(), o.durationSeconds());
            List<Future<LatencyResult>> lat = new ArrayList<>();
            List<Future<BandwidthResult>> bw = new ArrayList<>();
            for (GeneratorSpec g : o.generators()) {
                if (g.kind() == GeneratorSpec.Kind.LSG) {
                    lat.add(pool.submit(new LatencyGenerator(g, o.server(), lb, window, o.iterations(), o.busyPoll())));
                } else {
                    bw.add(pool.submit(new BandwidthGenerator(g, o.server(), window)));
                }
            }
            List<LatencyResult> lr = new ArrayList<>();
            for (Future<LatencyResult> f : lat) {
                lr.add(get(f));
            }
            List<BandwidthResult> br = new ArrayList<>();
            for (Future<BandwidthResult> f : bw) {
                br.add(get(f));
            }
            return new RunResult(lr, br);
        } finally {
            pool.shutdownNow();
            if (echo != null) {
                echo.close();
            }
        }
    }

    private static <T> T get(Future<T> f) throws IOException, InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
