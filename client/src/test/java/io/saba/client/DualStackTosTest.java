package io.saba.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real loopback sockets: which ones the JDK's IP_TOS would miss, and that those get the native helper. */
class DualStackTosTest {
    @Test
    void anIpv4ConnectionOnJavasDualStackSocketGoesThroughTheNativeHelper() throws IOException {
        assumeFalse(Boolean.getBoolean("java.net.preferIPv4Stack"), "this JVM opens IPv4 sockets");
        try (ServerSocketChannel server = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            assertTrue(DualStackTos.needsNative(client), "the JDK opened an IPv6 socket for an IPv4 peer");
            List<int[]> calls = new ArrayList<>();
            DualStackTos.apply(client, 0x20, (fd, tos) -> calls.add(new int[] {fd, tos}));
            assertEquals(1, calls.size());
            assertTrue(calls.get(0)[0] > 2, "the socket's own descriptor, not stdin/out/err: " + calls.get(0)[0]);
            assertEquals(0x20, calls.get(0)[1]);
            IOException e = assertThrows(IOException.class, () -> DualStackTos.apply(client, 0x20, null));
            assertTrue(e.getMessage().contains("preferIPv4Stack"), e.getMessage());
        }
    }

    @Test
    void anIpv6ConnectionNeedsNothingMore() throws IOException {
        InetAddress v6 = InetAddress.getByName("::1");
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(v6, 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            assertFalse(DualStackTos.needsNative(client), "IPV6_TCLASS is what an IPv6 connection's packets carry");
            DualStackTos.apply(client, 0x20, (fd, tos) -> {
                throw new AssertionError("not needed");
            });
        } catch (java.net.SocketException unavailable) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "no IPv6 loopback here: " + unavailable);
        }
    }
}
