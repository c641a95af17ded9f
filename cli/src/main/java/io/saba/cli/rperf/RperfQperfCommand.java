package io.saba.cli.rperf;

import io.saba.rperf.tool.GeneratorSpec;
import io.saba.rperf.tool.PerftestFormat;
import io.saba.rperf.tool.Qperf;
import io.saba.rperf.tool.RperfClient;
import io.saba.rperf.tool.RperfServer;
import io.saba.rperf.tool.RunResult;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba rperf qperf}: RPerf and qperf on the same path and message sizes, side by side. With
 * {@code --local} it starts both servers on this host (loopback); otherwise both must already run on the
 * far host ({@code saba rperf server}, {@code qperf}).
 */
@Command(name = "qperf", mixinStandardHelpOptions = true,
        description = "Compare RPerf's TCP latency/bandwidth with qperf's tcp_lat/tcp_bw on the same path.")
public final class RperfQperfCommand implements Callable<Integer> {
    @Option(names = {"-H", "--host"}, defaultValue = "127.0.0.1", description = "Far host (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--local", description = "Start an rperf server and a qperf server here first.")
    boolean local;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "rperf server port.")
    int port;

    @Option(names = "--qperf-port", defaultValue = "19765", description = "qperf listen port.")
    int qperfPort;

    @Option(names = "--sizes", split = ",", defaultValue = "64,4096", description = "Message sizes (default ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(names = {"-D", "--duration"}, defaultValue = "3", description = "Seconds per test (default ${DEFAULT-VALUE}).")
    int duration;

    @Override
    public Integer call() throws Exception {
        if (Qperf.binary().isEmpty()) {
            System.out.println("rperf qperf: SKIPPED: qperf is not installed (apt-get install qperf)");
            return 0;
        }
        RperfServer ours = null;
        Process theirs = null;
        try {
            if (local) {
                ours = RperfServer.start(new InetSocketAddress(host, 0), -1);
                port = ours.port();
                theirs = Qperf.startServer(qperfPort);
                Thread.sleep(300); // let qperf bind
            }
            System.out.println("RTT in us (qperf prints one-way latency; doubled here). rperf plain = no loopback "
                    + "request; paired = with the loopback reference request posted alongside (RPerf method).");
            System.out.println("BW in Gb/s; qperf writes one message per call, as rperf with batch 1; rperf batched "
                    + "packs 64 KiB per write.");
            System.out.println(String.format(Locale.ROOT, "%-7s | %-24s | %-30s | %-10s | %-14s | %-14s | %-9s", "#bytes",
                    "rperf plain med / p99.9", "rperf paired e2e / subtracted", "qperf RTT", "rperf BW batch1",
                    "rperf BW batched", "qperf BW"));
            for (int size : sizes) {
                InetSocketAddress srv = new InetSocketAddress(host, port);
                var plain = RperfClient.run(new RperfClient.Options(srv, List.of(GeneratorSpec.lsg(size, -1)),
                        0.5, duration, 0, false, false)).latency().get(0);
                var paired = RperfClient.run(new RperfClient.Options(srv, List.of(GeneratorSpec.lsg(size, -1)),
                        0.5, duration, 0, true, false)).latency().get(0);
                RunResult bw = RperfClient.run(new RperfClient.Options(srv,
                        List.of(GeneratorSpec.bsg(size, -1, Math.max(1, 65536 / size))), 0.5, duration, 0, false, false));
                RunResult bw1 = RperfClient.run(new RperfClient.Options(srv,
                        List.of(GeneratorSpec.bsg(size, -1, 1)), 0.5, duration, 0, false, false));
                Qperf.Figures q = Qperf.run(host, qperfPort, size, duration);
                System.out.println(String.format(Locale.ROOT, "%-7d | %10.2f / %10.2f  | %12.2f / %14.2f  | %10.2f | %14.2f | %14.2f | %9.2f",
                        size, med(plain.endToEnd()), p999(plain.endToEnd()), med(paired.endToEnd()),
                        med(paired.subtracted()), q.rttUs(), bw1.totalGbps(), bw.totalGbps(), q.bandwidthGbps()));
                System.out.println("   rperf plain, perftest columns:");
                System.out.println("  " + PerftestFormat.LAT_HEADER);
                System.out.println("  " + PerftestFormat.latencyLine(size, plain.endToEnd()));
            }
        } finally {
            if (theirs != null) {
                theirs.destroy();
            }
            if (ours != null) {
                ours.close();
            }
        }
        return 0;
    }

    private static double med(org.HdrHistogram.Histogram h) {
        return h.getValueAtPercentile(50) / 1e3;
    }

    private static double p999(org.HdrHistogram.Histogram h) {
        return h.getValueAtPercentile(99.9) / 1e3;
    }
}
