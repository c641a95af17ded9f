package io.saba.client;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Sets the IPv4 TOS byte on JDK socket channels that Java opened as IPv6 (dual-stack) sockets, for any engine.
 *
 * <p>Why: Java's NIO opens IPv6 sockets by default, and for them {@code IP_TOS} only sets {@code IPV6_TCLASS}; the
 * kernel ignores that for IPv4 traffic, so the packets of an IPv4 connection keep DSCP 0 although
 * {@code getOption(IP_TOS)} reads back the new value (seen on Linux, Java 17, with a capture; with
 * {@code -Djava.net.preferIPv4Stack=true} the plain option works). The JDK has no way to set the IPv4 option on
 * such a socket, so the caller hands over a native helper that sets both options on a file descriptor: the
 * engine's own Netty ships one ({@code io.netty.channel.unix.Socket#setTrafficClass} in Netty's epoll library, which
 * Spark carries unrelocated). The descriptor is read by reflection from the JDK's channel, which needs
 * {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED} (Spark 3.5 adds it to every executor).
 */
public final class DualStackTos {
    private DualStackTos() {
    }

    /** Sets a traffic class on a socket given by its file descriptor, at the IPv4 and the IPv6 level. */
    @FunctionalInterface
    public interface NativeTrafficClass {
        void set(int fd, int tos) throws IOException;
    }

    /**
     * Whether the JDK's {@code IP_TOS} would miss this channel's packets: a connected IPv4 connection on a socket Java
     * opened as IPv6 (the default, unless {@code java.net.preferIPv4Stack}).
     */
    public static boolean needsNative(SocketChannel ch) throws IOException {
        return !Boolean.getBoolean("java.net.preferIPv4Stack")
                && ch.getLocalAddress() instanceof InetSocketAddress local
                && local.getAddress() instanceof Inet4Address;
    }

    /**
     * Applies the TOS at the IPv4 level too where {@link #needsNative} says the JDK's option would not; does
     * nothing otherwise.
     *
     * @param nativeSetter the engine's native helper, or null when it cannot load
     * @throws IOException saying what is missing (the native helper, or access to the descriptor)
     */
    public static void apply(SocketChannel ch, int tos, NativeTrafficClass nativeSetter) throws IOException {
        if (!needsNative(ch)) {
            return;
        }
        if (nativeSetter == null) {
            throw new IOException("IPv4 TOS on a dual-stack socket needs the engine's native socket library (not "
                    + "loadable here) or -Djava.net.preferIPv4Stack=true in the JVM's options");
        }
        int fd;
        try {
            Method fdVal = ch.getClass().getMethod("getFDVal");
            fdVal.setAccessible(true);
            fd = (Integer) fdVal.invoke(ch);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IOException("cannot read the socket's file descriptor (add --add-opens "
                    + "java.base/sun.nio.ch=ALL-UNNAMED, or -Djava.net.preferIPv4Stack=true): " + e, e);
        }
        // a view of the descriptor, not an owner: never closed here, the channel keeps it
        nativeSetter.set(fd, tos);
    }
}
