package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.process.PacketCapture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each generator's DSCP must reach the IP header: checked on the socket and, as root, on the wire. */
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
    void lsgPacketsLeaveWithDscp46(@TempDir Path dir) throws Exception {
        String why = PacketCapture.unavailable();
        assumeTrue(why == null, "SKIP: " + why);
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1)) {
            int port = server.port();
            PacketCapture capture = PacketCapture.onLoopback("tcp dst port " + port, dir.resolve("lsg.pcap"));
            List<PacketCapture.Segment> sent;
            try {
                RperfClient.run(new RperfClient.Options(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                        List.of(GeneratorSpec.lsg(64, GeneratorSpec.dscpToTos(46))), 0, 5, 50, false, false));
            } finally {
                sent = capture.stop().stream().filter(seg -> seg.payload() > 0).toList();
            }
            assertTrue(sent.size() >= 5, "at least the 5 requests carried data to port " + port + ": " + sent);
            assertTrue(sent.stream().allMatch(seg -> seg.dscp() == 46), "every data segment carries DSCP 46: " + sent);
        }
    }
}
