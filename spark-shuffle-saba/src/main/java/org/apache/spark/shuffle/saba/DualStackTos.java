package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Sets the IPv4 TOS byte on NIO sockets that Java opened as IPv6 (dual-stack) sockets.
 *
 * <p>Why: Java's NIO opens IPv6 sockets by default, and for them {@code IP_TOS} only sets {@code IPV6_TCLASS}; the
 * kernel ignores that for IPv4 traffic, so the packets of an IPv4 connection keep DSCP 0 although
 * {@code getOption(IP_TOS)} reads back the new value (seen on Linux, Java 17, with a capture; with
 * {@code -Djava.net.preferIPv4Stack=true} the plain option works). Netty's native socket helper, shipped with
 * Spark for its EPOLL transport, sets both IPV6_TCLASS and IP_TOS on such a socket. Needs the socket's file
 * descriptor, read by reflection from the JDK's channel, which needs {@code --add-opens
 * java.base/sun.nio.ch=ALL-UNNAMED} (Spark 3.5 adds it to every executor).
 */
final class DualStackTos {
    private static final boolean NATIVE = loadNative();

    private DualStackTos() {
    }

    private static boolean loadNative() {
        try {
            return Epoll.isAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Applies the TOS at the IPv4 level too when {@code ch} is an NIO socket carrying IPv4; epoll channels and
     * IPv6 connections are already served by Netty's option. Throws IOException saying what is missing.
     */
    static void apply(Channel ch, int tos) throws IOException {
        if (!(ch instanceof NioSocketChannel) || !(ch.localAddress() instanceof InetSocketAddress local)
                || !(local.getAddress() instanceof Inet4Address) || Boolean.getBoolean("java.net.preferIPv4Stack")) {
            return;
        }
        if (!NATIVE) {
            throw new IOException("IPv4 TOS on a dual-stack NIO socket needs Netty's native epoll library (not "
                    + "loadable here) or -Djava.net.preferIPv4Stack=true in spark.executor.extraJavaOptions");
        }
        int fd;
        try {
            Method javaChannel = io.netty.channel.nio.AbstractNioChannel.class.getDeclaredMethod("javaChannel");
            javaChannel.setAccessible(true);
            SocketChannel jc = (SocketChannel) javaChannel.invoke(ch);
            Method fdVal = jc.getClass().getMethod("getFDVal");
            fdVal.setAccessible(true);
            fd = (Integer) fdVal.invoke(jc);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot read the socket's file descriptor (add --add-opens "
                    + "java.base/sun.nio.ch=ALL-UNNAMED, or -Djava.net.preferIPv4Stack=true): " + e, e);
        }
        // a view of the descriptor, not an owner: never closed here, the NIO channel keeps it
        new io.netty.channel.unix.Socket(fd).setTrafficClass(tos);
    }
}
