package io.saba.cli.rperf;

import io.saba.rperf.tool.GeneratorSpec;
import io.saba.rperf.tool.RdmaProbe;
import io.saba.rperf.tool.RperfClient;
import io.saba.rperf.tool.RunReport;
import io.saba.rperf.tool.RunResult;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba rperf client}: runs LSGs and BSGs from this host against a server, concurrently, and prints
 * perftest-style columns (and CSV on request).
 */
@Command(name = "client", mixinStandardHelpOptions = true,
        description = "Run latency (LSG) and bandwidth (BSG) generators against an rperf server.")
public final class RperfClientCommand implements Callable<Integer> {
    /** Transports; only TCP has generators, and an RDMA run fails with the reason. */
    enum Transport { tcp, rdma }

    @Option(names = {"-H", "--host"}, required = true, description = "Server address.")
    String host;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "Server port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--lsg", defaultValue = "1", description = "Number of LSGs (default ${DEFAULT-VALUE}).")
    int lsgs;

    @Option(names = "--bsg", defaultValue = "0", description = "Number of BSGs (default ${DEFAULT-VALUE}).")
    int bsgs;

    @Option(names = "--lsg-size", defaultValue = "64", description = "LSG message bytes (default ${DEFAULT-VALUE}).")
    int lsgSize;

    @Option(names = "--bsg-size", defaultValue = "4096", description = "BSG message bytes (default ${DEFAULT-VALUE}).")
    int bsgSize;

    @Option(names = "--batch", defaultValue = "1", description = "BSG messages per write (default ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--lsg-dscp", description = "DSCP (0-63) of LSG connections.")
    Integer lsgDscp;

    @Option(names = "--bsg-dscp", description = "DSCP (0-63) of BSG connections.")
    Integer bsgDscp;

    @Option(names = "--gen", description = "Extra generator, e.g. lsg:size=64,dscp=46 or bsg:size=256,tos=184,batch=64 "
            + "(repeatable; a BSG on the LSG's DSCP is the paper's 'pretend LSG').")
    List<String> extra = new ArrayList<>();

    @Option(names = {"-D", "--duration"}, defaultValue = "5", description = "Measured seconds (default ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--warmup", defaultValue = "1", description = "Seconds dropped first (default ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = {"-n", "--iterations"}, defaultValue = "0",
            description = "Stop each LSG after this many measured messages (0: run the duration).")
    long iterations;

    @Option(names = "--no-loopback", description = "Skip the loopback reference request (end-to-end RTT only).")
    boolean noLoopback;

    @Option(names = "--busy-poll", description = "LSGs spin instead of sleeping while waiting (one core each).")
    boolean busyPoll;

    @Option(names = "--csv", description = "Also write the results as CSV to this file.")
    Path csv;

    @Option(names = "--transport", defaultValue = "tcp", description = "tcp or rdma (default ${DEFAULT-VALUE}).")
    Transport transport;

    @Override
    public Integer call() throws Exception {
        if (transport == Transport.rdma) {
            Optional<String> why = new RdmaProbe().cannotRun();
            if (why.isPresent()) {
                // nothing was measured, so the exit code must say the run failed
                System.err.println("rperf: rdma run not done: " + why.get());
                return 1;
            }
        }
        List<GeneratorSpec> gens = new ArrayList<>();
        for (int i = 0; i < lsgs; i++) {
            gens.add(GeneratorSpec.lsg(lsgSize, lsgDscp == null ? -1 : GeneratorSpec.dscpToTos(lsgDscp)));
        }
        for (int i = 0; i < bsgs; i++) {
            gens.add(GeneratorSpec.bsg(bsgSize, bsgDscp == null ? -1 : GeneratorSpec.dscpToTos(bsgDscp), batch));
        }
        extra.forEach(e -> gens.add(GeneratorSpec.parse(e)));
        if (gens.isEmpty()) {
            System.err.println("rperf: no generators (use --lsg, --bsg or --gen)");
            return 2;
        }
        RunResult r = RperfClient.run(new RperfClient.Options(new InetSocketAddress(host, port), gens, warmup,
                duration, iterations, !noLoopback, busyPoll));
        RunReport.print(r, System.out);
        if (csv != null) {
            RunReport.writeCsv(r, csv);
            System.out.println("csv: " + csv);
        }
        return 0;
    }
}
