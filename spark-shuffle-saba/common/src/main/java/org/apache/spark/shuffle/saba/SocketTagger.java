package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.saba.client.SocketTagging;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The application's sockets in one JVM (driver or executor): every connection this JVM's Spark transports accept
 * or open gets the application's TOS before its first data byte, all of them are re-tagged when the level changes,
 * and the ones that carry the application's bulk data are reported (opened and closed) to the controller.
 *
 * <p>{@link TransportHooks} puts this tagger into Spark's transports; which connections are reported, and in which
 * direction, is the caller's {@link Reporting} choice: data flows from {@code src} to {@code dst} of an event.
 * Uses Spark's own (unrelocated) Netty; see {@link NettyChannelTos} for IPv4 over Java's IPv6 sockets.
 */
final class SocketTagger {
    /** Which data directions of a new connection to report; none for connections that only carry requests. */
    @FunctionalInterface
    interface Reporting {
        List<Messages.ConnectionEvent> opened(InetSocketAddress local, InetSocketAddress remote);

        /** Report nothing (the other end reports the data it serves). */
        Reporting NONE = (l, r) -> List.of();
        /** This side serves: data flows from here to the peer. */
        Reporting SERVING = (l, r) -> List.of(event(true, l, r));
        /** Data flows both ways (an RPC connection to the driver). */
        Reporting BOTH_WAYS = (l, r) -> List.of(event(true, l, r), event(true, r, l));
    }

    private final Map<Channel, List<Messages.ConnectionEvent>> live = new ConcurrentHashMap<>();
    private final Consumer<List<Messages.ConnectionEvent>> report;
    private volatile int tos;

    /** @param report gets the events of each opened and closed connection (called on Netty's threads: be quick) */
    SocketTagger(int tos, Consumer<List<Messages.ConnectionEvent>> report) {
        this.tos = tos;
        this.report = report;
    }

    /** A new connection: tag it now (before any byte), remember it for re-tagging, report what {@code how} says. */
    void track(Channel ch, Reporting how) {
        setTos(ch, tos);
        List<Messages.ConnectionEvent> opened = List.of();
        if (ch.localAddress() instanceof InetSocketAddress local
                && ch.remoteAddress() instanceof InetSocketAddress remote) {
            opened = how.opened(local, remote);
        }
        if (live.putIfAbsent(ch, opened) != null) {
            return;
        }
        if (!opened.isEmpty()) {
            report.accept(opened);
        }
        ch.closeFuture().addListener(f -> forget(ch));
    }

    private void forget(Channel ch) {
        List<Messages.ConnectionEvent> opened = live.remove(ch);
        if (opened != null && !opened.isEmpty()) {
            report.accept(opened.stream().map(Messages.ConnectionEvent::closed).toList());
        }
    }

    static Messages.ConnectionEvent event(boolean open, InetSocketAddress src, InetSocketAddress dst) {
        return new Messages.ConnectionEvent(open, src.getAddress().getHostAddress(), src.getPort(),
                dst.getAddress().getHostAddress(), dst.getPort());
    }

    int tos() {
        return tos;
    }

    int liveConnections() {
        return live.size();
    }

    /** A new level: new connections get it, and so do the open ones (each on its own event loop). */
    void retag(int newTos) {
        tos = newTos;
        for (Channel ch : live.keySet()) {
            if (ch.isRegistered()) {
                ch.eventLoop().execute(() -> setTos(ch, newTos));
            } else {
                setTos(ch, newTos);
            }
        }
    }

    /** Reports the open connections as closed (this JVM is leaving) and forgets them. */
    void closeAll() {
        for (Channel ch : live.keySet()) {
            forget(ch);
        }
    }

    private static void setTos(Channel ch, int t) {
        SocketTagging.tag(v -> {
            try {
                if (!ch.config().setOption(ChannelOption.IP_TOS, v)) {
                    throw new UnsupportedOperationException(ch.getClass().getSimpleName() + " has no IP_TOS option");
                }
            } catch (ChannelException e) {
                // Netty wraps the socket's SocketException
                throw new IOException(e.getMessage(), e);
            }
            NettyChannelTos.apply(ch, v);
        }, t, ch);
    }
}
