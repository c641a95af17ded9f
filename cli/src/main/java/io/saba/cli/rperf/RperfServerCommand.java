package io.saba.cli.rperf;

import io.saba.rperf.tool.GeneratorSpec;
import io.saba.rperf.tool.RperfServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code saba rperf server}: the destination every generator sends to. Runs until killed. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = "Acknowledge LSG messages and sink BSG traffic (run on the destination host).")
public final class RperfServerCommand implements Callable<Integer> {
    @Option(names = "--bind", defaultValue = "0.0.0.0", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "TCP port (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dscp", description = "DSCP of acknowledgements and sink replies (0-63).")
    Integer dscp;

    @Override
    public Integer call() throws Exception {
        int tos = dscp == null ? -1 : GeneratorSpec.dscpToTos(dscp);
        try (RperfServer s = RperfServer.start(new InetSocketAddress(bind, port), tos)) {
            System.out.println("rperf server listening on " + bind + ":" + s.port());
            System.out.flush();
            new CountDownLatch(1).await(); // until the process is stopped
        }
        return 0;
    }
}
