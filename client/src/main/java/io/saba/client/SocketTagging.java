package io.saba.client;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets IP_TOS (DSCP in the upper six bits) on sockets and channels. Failures are logged once and reported by
 * the return value, never thrown: a missing tag costs priority, not the connection.
 *
 * <p>Facts that shape these helpers (Linux, Java 17): a {@link ServerSocket}'s IP_TOS is inherited by the sockets
 * it accepts; an NIO server channel refuses IP_TOS, but a connected {@code SocketChannel} accepts it. For channel
 * types this library does not know (e.g. Netty's), pass a {@link TosSetter} that calls the type's own option API,
 * e.g. {@code t -> nettyChannel.config().setOption(ChannelOption.IP_TOS, t)}.
 */
public final class SocketTagging {
    private static final Logger LOG = LoggerFactory.getLogger(SocketTagging.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private SocketTagging() {
    }

    /** Sets a TOS byte on something this class does not know. */
    @FunctionalInterface
    public interface TosSetter {
        void setTos(int tos) throws IOException;
    }

    public static boolean tag(Socket socket, int tos) {
        return tag(t -> socket.setOption(StandardSocketOptions.IP_TOS, t), tos, socket);
    }

    public static boolean tag(ServerSocket socket, int tos) {
        return tag(t -> socket.setOption(StandardSocketOptions.IP_TOS, t), tos, socket);
    }

    /** Any NIO channel: SocketChannel, DatagramChannel, AsynchronousSocketChannel. */
    public static boolean tag(NetworkChannel channel, int tos) {
        return tag(t -> channel.setOption(StandardSocketOptions.IP_TOS, t), tos, channel);
    }

    public static boolean tag(TosSetter setter, int tos, Object what) {
        if (tos < 0 || tos > 255) {
            throw new IllegalArgumentException("TOS byte must be 0..255, got " + tos);
        }
        try {
            setter.setTos(tos);
            return true;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("cannot set IP_TOS {} on {}: {} (further failures are not logged)", tos, what, e.toString());
            }
            return false;
        }
    }
}
