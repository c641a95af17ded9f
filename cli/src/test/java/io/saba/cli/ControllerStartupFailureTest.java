package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, items 1 and 4: a controller that cannot start where it was asked to says why in one line on standard
 * error and exits with status 2, with no stack trace: a journal directory another controller holds (a second process,
 * which must name the holder), a gRPC or HTTP port in use, an ibsim socket nobody serves, no InfiniBand HCA.
 */
class ControllerStartupFailureTest {
    private static Path config(Path dir, String... extra) throws Exception {
        return Files.writeString(dir.resolve("saba.yaml"), String.join("\n", List.of(
                "topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1}",
                "backend-options: {log: false}",
                "journal-dir: state")) + "\n" + String.join("\n", extra) + "\n");
    }

    /** One line on standard error, the command's, and nothing of a stack trace. */
    static void oneLine(List<String> errLines, String expected) {
        assertTrue(errLines.stream().noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception")),
                "no stack trace: " + errLines);
        String last = errLines.isEmpty() ? "" : errLines.get(errLines.size() - 1);
        assertTrue(last.startsWith("saba controller: ") && last.contains(expected), String.join("\n", errLines));
    }

    @Test
    void aSecondProcessOnTheSameJournalIsRefusedNamingTheHolder(@TempDir Path dir) throws Exception {
        Path config = config(dir, "listen: 127.0.0.1:0");
        try (EmbeddedController running = ControllerConfig.load(config)) {
            running.start();
            SabaProcess.Result r = SabaProcess.run(dir, 120, "controller", "--config", config.toString());
            assertEquals(2, r.exit(), r.err());
            oneLine(r.errLines(), "is in use by another controller (pid " + ProcessHandle.current().pid() + " on "
                    + InetAddress.getLocalHost().getHostName());
        }
    }

    @Test
    void aGrpcOrHttpPortInUseIsOneLine(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Path config = config(dir, "listen: 127.0.0.1:" + taken.getLocalPort());
            oneLine(runHere(2, "controller", "--config", config.toString()),
                    "gRPC address 127.0.0.1:" + taken.getLocalPort() + " is in use");
            config = config(dir, "listen: 127.0.0.1:0", "http: 127.0.0.1:" + taken.getLocalPort());
            oneLine(runHere(2, "controller", "--config", config.toString()),
                    "HTTP address 127.0.0.1:" + taken.getLocalPort() + " is in use");
        }
    }

    @Test
    void anIbsimSocketNobodyServesIsOneLineAtOnce() {
        // before: ibnetdiscover waited its 20 s timeout, then a stack trace and exit 1
        String socket = "nosuchsock" + ProcessHandle.current().pid();
        oneLine(runHere(2, "controller", "--fabric", "infiniband", "--ibsim", socket, "--listen", "127.0.0.1:0"),
                "no ibsim serves the socket '" + socket + "'");
    }

    @Test
    void noHcaIsOneLine() {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ibnetdiscover")), "infiniband-diags is not installed");
        assumeTrue(!Files.exists(Path.of("/sys/class/infiniband")), "this machine has an InfiniBand HCA");
        oneLine(runHere(2, "controller", "--fabric", "infiniband", "--listen", "127.0.0.1:0"),
                "no InfiniBand HCA to talk to: ");
    }

    /** Runs the command line in this JVM; checks its exit status; returns its standard error's lines. */
    static List<String> runHere(int exit, String... args) {
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int got = cl.execute(args);
        assertEquals(exit, got, err.toString());
        return err.toString().isBlank() ? List.of() : List.of(err.toString().strip().split("\n"));
    }
}
