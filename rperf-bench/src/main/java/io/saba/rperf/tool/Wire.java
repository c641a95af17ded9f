package io.saba.rperf.tool;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The little protocol between a generator and the server. A connection starts with a 12-byte hello:
 * magic, mode, message size. LATENCY: each message is answered with an 8-byte acknowledgement carrying
 * the message's first 8 bytes (its sequence number). BANDWIDTH: messages are discarded; when the client
 * shuts its output the server answers with the 8-byte count of bytes it received.
 */
final class Wire {
    static final int MAGIC = 0x52504552; // "RPER"
    static final int LATENCY = 1;
    static final int BANDWIDTH = 2;
    static final int ACK_BYTES = 8;
    static final int HELLO_BYTES = 12;

    private Wire() {
    }

    static ByteBuffer hello(int mode, int size) {
        ByteBuffer b = ByteBuffer.allocate(HELLO_BYTES).putInt(MAGIC).putInt(mode).putInt(size);
        return b.flip();
    }

    static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Reads until {@code b} is full; false on a clean end of stream before the first byte. */
    static boolean readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        boolean first = true;
        while (b.hasRemaining()) {
            int n = ch.read(b);
            if (n < 0) {
                if (first && b.position() == 0) {
                    return false;
                }
                throw new EOFException("stream ended mid-message");
            }
            first = false;
        }
        return true;
    }

    /**
     * The socket's family must match the address: a default (dual-stack IPv6) channel accepts IP_TOS and
     * reads it back, but its IPv4 packets leave with TOS 0 (seen with tcpdump on Java 17), so an IPv4
     * peer gets an IPv4 socket.
     */
    static java.net.ProtocolFamily family(java.net.InetSocketAddress a) {
        return a.getAddress() instanceof java.net.Inet6Address ? java.net.StandardProtocolFamily.INET6
                : java.net.StandardProtocolFamily.INET;
    }

    /** Opens a blocking, no-delay connection with the given IP TOS byte (DSCP << 2), -1 to leave it. */
    static SocketChannel connect(java.net.InetSocketAddress to, int tos) throws IOException {
        SocketChannel ch = SocketChannel.open(family(to));
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (tos >= 0) {
            // set before connect so the SYN already carries it (tcp_reflect_tos servers copy it)
            ch.setOption(StandardSocketOptions.IP_TOS, tos);
        }
        ch.connect(to);
        return ch;
    }
}
