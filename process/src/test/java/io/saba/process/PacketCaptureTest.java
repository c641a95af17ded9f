package io.saba.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The capture on real loopback traffic, and tshark's lines read as segments. */
class PacketCaptureTest {
    @Test
    void tsharkLinesOfBothFamilies() {
        List<PacketCapture.Segment> s = PacketCapture.parse(String.join("\n",
                "127.0.0.1,,40000,127.0.0.1,,40001,1448,0x0000000a,",
                ",::1,40002,,::1,40003,0,,0x00000028",
                ",,,,,,,,"));
        assertEquals(List.of(new PacketCapture.Segment("127.0.0.1", 40000, "127.0.0.1", 40001, 1448, 10),
                new PacketCapture.Segment("::1", 40002, "::1", 40003, 0, 10)), s);
    }

    /** A connection whose sender sets DSCP 10 (TOS 0x28): its data segments are captured with it, IPv4 and IPv6. */
    @Test
    void capturesTheDscpOfRealSegments(@TempDir Path dir) throws Exception {
        String why = PacketCapture.unavailable();
        assumeTrue(why == null, "SKIP: " + why);
        for (String address : List.of("127.0.0.1", "::1")) {
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName(address))) {
                int port = server.getLocalPort();
                PacketCapture capture = PacketCapture.onLoopback("tcp port " + port, dir.resolve(port + ".pcap"));
                InetAddress to = InetAddress.getByName(address);
                // a channel of the address's own family: on Java's dual-stack sockets IP_TOS sets only IPv6's class
                try (SocketChannel c = SocketChannel.open(to instanceof Inet6Address ? StandardProtocolFamily.INET6
                        : StandardProtocolFamily.INET)) {
                    c.setOption(StandardSocketOptions.IP_TOS, 10 << 2);
                    c.connect(new InetSocketAddress(to, port));
                    try (Socket accepted = server.accept(); InputStream in = accepted.getInputStream()) {
                        ByteBuffer data = ByteBuffer.allocate(5000);
                        while (data.hasRemaining()) {
                            c.write(data);
                        }
                        assertEquals(5000, in.readNBytes(5000).length);
                    }
                }
                List<PacketCapture.Segment> sent = capture.stop().stream()
                        .filter(s -> s.dstPort() == port && s.payload() > 0).toList();
                assertEquals(5000, sent.stream().mapToInt(PacketCapture.Segment::payload).sum(), address + ": " + sent);
                assertTrue(sent.stream().allMatch(s -> s.dscp() == 10), address + ": " + sent);
            }
        }
    }
}
