package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Each generator's DSCP must reach the IP header: checked on the socket and, as root, on the wire with tcpdump. */
class DscpOnWireTest {
    @Test
    void theConnectionCarriesTheRequestedTos() throws Exception {
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1);
             SocketChannel ch = Wire.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
                     GeneratorSpec.dscpToTos(46))) {
            assertEquals(184, ch.getOption(StandardSocketOptions.IP_TOS));
        }
    }

    @Test
    void lsgPacketsLeaveWithDscp46() throws Exception {
        assumeTrue(new File("/usr/bin/tcpdump").canExecute() || new File("/usr/sbin/tcpdump").canExecute(),
                "SKIP: tcpdump not installed (.ci/run installs it)");
        assumeTrue(io.saba.process.Host.root(), "SKIP: capturing on lo needs root");
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1)) {
            int port = server.port();
            // count only data-bearing packets to the server port whose DSCP (upper 6 bits of TOS) is 46
            Process dump = new ProcessBuilder("tcpdump", "-i", "lo", "-n", "-c", "5", "-l",
                    "tcp dst port " + port + " and (ip[1] & 0xfc) == 0xb8 and tcp[tcpflags] & tcp-push != 0")
                    .redirectErrorStream(false).start();
            Thread.sleep(1000); // let tcpdump attach before traffic starts
            RperfClient.run(new RperfClient.Options(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                    List.of(GeneratorSpec.lsg(64, GeneratorSpec.dscpToTos(46))), 0, 5, 50, false, false));
            boolean done = dump.waitFor(10, TimeUnit.SECONDS);
            if (!done) {
                dump.destroy(); // before reading, or the read waits for a process that never ends
                dump.waitFor(5, TimeUnit.SECONDS);
            }
            String out = new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(done, "tcpdump saw fewer than 5 DSCP-46 packets to port " + port + ":\n" + out);
            assertEquals(5, out.lines().filter(l -> l.contains("." + port + ":")).count(), out);
        }
    }
}
