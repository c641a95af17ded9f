package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.saba.client.SocketTagging;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Tags the connections a block-transfer server accepts, i.e. the serving side of every shuffle fetch, which is
 * where shuffle bytes come from.
 *
 * <p>It sits first in the <em>listening</em> channel's pipeline, where Netty's acceptor hands each accepted child
 * channel on as a message, so it sees every connection before any byte is written on it. Why here: Spark's
 * TransportConf has no TOS option, Netty's NIO server channel refuses IP_TOS (so no inheritance from the listening
 * socket), but a connected socket accepts it. The tag is re-applied to all live connections when the application's
 * level changes. Uses Spark's own (unrelocated) Netty; see {@link DualStackTos} for IPv4 over Java's IPv6 sockets.
 */
@ChannelHandler.Sharable
final class AcceptTagger extends ChannelInboundHandlerAdapter {
    private final Set<Channel> live = ConcurrentHashMap.newKeySet();
    private final Consumer<Messages.ConnectionEvent> report;
    private volatile int tos;

    /** @param report gets an event per accepted and per closed connection (called on Netty's threads: be quick) */
    AcceptTagger(int tos, Consumer<Messages.ConnectionEvent> report) {
        this.tos = tos;
        this.report = report;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Channel child) {
            accepted(child);
        }
        ctx.fireChannelRead(msg);
    }

    private void accepted(Channel child) {
        setTos(child, tos);
        if (!(child.localAddress() instanceof InetSocketAddress local)
                || !(child.remoteAddress() instanceof InetSocketAddress remote)) {
            return;
        }
        live.add(child);
        report.accept(event(true, local, remote));
        child.closeFuture().addListener(f -> {
            if (live.remove(child)) {
                report.accept(event(false, local, remote));
            }
        });
    }

    private static Messages.ConnectionEvent event(boolean open, InetSocketAddress local, InetSocketAddress remote) {
        // shuffle bytes flow from this (serving) side to the fetcher
        return new Messages.ConnectionEvent(open, local.getAddress().getHostAddress(), local.getPort(),
                remote.getAddress().getHostAddress(), remote.getPort());
    }

    int tos() {
        return tos;
    }

    int liveConnections() {
        return live.size();
    }

    /** A new level: new connections get it, and so do the open ones (on their own event loops). */
    void retag(int newTos) {
        tos = newTos;
        for (Channel ch : live) {
            if (ch.isRegistered()) {
                ch.eventLoop().execute(() -> setTos(ch, newTos));
            } else {
                setTos(ch, newTos);
            }
        }
    }

    /** Reports the open connections as closed (the executor is leaving) and forgets them. */
    void closeAll() {
        for (Channel ch : live) {
            if (live.remove(ch) && ch.localAddress() instanceof InetSocketAddress l
                    && ch.remoteAddress() instanceof InetSocketAddress r) {
                report.accept(event(false, l, r));
            }
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
            DualStackTos.apply(ch, v);
        }, t, ch);
    }
}
