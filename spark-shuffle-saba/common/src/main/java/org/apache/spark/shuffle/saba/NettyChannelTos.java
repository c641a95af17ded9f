package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.channels.SocketChannel;

/**
 * The client library's {@link io.saba.client.DualStackTos} on Spark's Netty channels: an NIO channel's JDK socket,
 * and Netty's native socket helper (shipped with Spark for its EPOLL transport) to set the IPv4 TOS that the JDK's
 * option misses on a dual-stack socket. Epoll channels and IPv6 connections are already served by Netty's option.
 */
final class NettyChannelTos {
    private static final io.saba.client.DualStackTos.NativeTrafficClass NATIVE = loadNative();

    private NettyChannelTos() {
    }

    private static io.saba.client.DualStackTos.NativeTrafficClass loadNative() {
        try {
            return Epoll.isAvailable() ? (fd, tos) -> new io.netty.channel.unix.Socket(fd).setTrafficClass(tos)
                    : null;
        } catch (Throwable t) {
            return null;
        }
    }

    /** Applies the TOS at the IPv4 level too when {@code ch} is an NIO socket carrying IPv4. */
    static void apply(Channel ch, int tos) throws IOException {
        if (!(ch instanceof NioSocketChannel)) {
            return;
        }
        SocketChannel jdk;
        try {
            Method javaChannel = io.netty.channel.nio.AbstractNioChannel.class.getDeclaredMethod("javaChannel");
            javaChannel.setAccessible(true);
            jdk = (SocketChannel) javaChannel.invoke(ch);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot reach the JDK channel of a Netty NIO channel: " + e, e);
        }
        io.saba.client.DualStackTos.apply(jdk, tos, NATIVE);
    }
}
