package io.saba.bench.proof;

import io.saba.process.CommandRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tcpdump capture on a switch port (headers only), then a check of the DSCP of every packet that carries data
 * of an application's connection (identified by sender address and its pinned local port).
 */
final class DscpCapture {
    // tcpdump -v prints "IP (tos 0x20, ttl 64, ...)" then, on the next line, "A.B.C.D.PORT > ...: ..., length N".
    private static final Pattern PACKET = Pattern.compile(
            "IP \\(tos 0x([0-9a-f]+),[^\\n]*\\n\\s*(\\d+\\.\\d+\\.\\d+\\.\\d+)\\.(\\d+) > [^\\n]*length (\\d+)");

    private final Path file;
    private final Process tcpdump;

    private DscpCapture(Path file, Process tcpdump) {
        this.file = file;
        this.tcpdump = tcpdump;
    }

    /**
     * Starts capturing TCP toward the receiver on the switch's port to it. {@code --immediate-mode}: libpcap's ring
     * otherwise hands packets over a block at a time, and a burst just before the capture stops is lost.
     */
    static DscpCapture start(TestbedSpec spec, int port, String receiverAddress, Path file) throws IOException {
        Process p = new ProcessBuilder(Testbed.inNode(spec, TestbedSpec.SWITCH, List.of("tcpdump", "-i",
                spec.switchPortDevice(port), "-n", "-s", "96", "--immediate-mode", "-U", "-w", file.toString(),
                "tcp and dst host " + receiverAddress)))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(file.resolveSibling(file.getFileName() + ".err").toFile())
                .start();
        return new DscpCapture(file, p);
    }

    /** Stops the capture (SIGTERM lets tcpdump flush) and waits for it. */
    void stop() throws InterruptedException {
        tcpdump.destroy();
        if (!tcpdump.waitFor(5, TimeUnit.SECONDS)) {
            tcpdump.destroyForcibly();
        }
    }

    /** Data packets of one connection and how many of them carried the expected DSCP. */
    record Check(long dataPackets, long withDscp, int otherDscp) {
        boolean allTagged() {
            return dataPackets > 0 && dataPackets == withDscp;
        }
    }

    /** Reads the capture back and checks every data packet from {@code address:port} for {@code dscp}. */
    Check check(CommandRunner shell, String address, int port, int dscp) {
        String text = shell.check("tcpdump", "-r", file.toString(), "-n", "-v");
        Matcher m = PACKET.matcher(text);
        long data = 0;
        long ok = 0;
        int other = -1;
        while (m.find()) {
            if (!m.group(2).equals(address) || Integer.parseInt(m.group(3)) != port
                    || Integer.parseInt(m.group(4)) == 0) {
                continue; // another sender, or a pure ACK/handshake without payload
            }
            data++;
            int seen = Integer.parseInt(m.group(1), 16) >> 2;
            if (seen == dscp) {
                ok++;
            } else {
                other = seen;
            }
        }
        return new Check(data, ok, other);
    }
}
