package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.network.client.TransportClient;
import org.apache.spark.network.client.TransportClientBootstrap;
import org.apache.spark.network.client.TransportClientFactory;
import org.apache.spark.network.server.TransportServer;

/**
 * Puts a {@link SocketTagger} into one of Spark's Netty transports: the RPC environment ({@code NettyRpcEnv}) or the
 * block-transfer service ({@code NettyBlockTransferService}). Each owns a {@code TransportServer} (none for an
 * executor's client-mode RPC environment) and a {@code TransportClientFactory}.
 *
 * <p>Spark exposes no hook, so this reads private fields by type, not by name, to survive renames (Spark 3.5:
 * {@code server}, {@code clientFactory}; {@code TransportServer.channelFuture};
 * {@code TransportClientFactory.clientBootstraps} and {@code connectionPool}). Spark's classes sit in the unnamed
 * module, so no --add-opens is needed.
 * <ul>
 *   <li>Accepted connections: a handler first in the <em>listening</em> channel's pipeline, where Netty's acceptor
 *   hands each accepted child channel on as a message, so it sees every connection before a byte is written on it
 *   (Netty's NIO server channel refuses IP_TOS, so the child cannot inherit it).</li>
 *   <li>Opened connections: a client bootstrap placed first in the factory's list. Spark runs bootstraps after the
 *   connection is established and before the client is handed to anyone, so before the first request. The
 *   connections already pooled (an executor registers with the driver before its plugin starts) are tagged at
 *   once.</li>
 * </ul>
 */
final class TransportHooks {
    private static final String HANDLER = "saba-socket-tagger";

    private TransportHooks() {
    }

    /** What was hooked, so that it can be unhooked. */
    record Hooked(Channel listening, TransportClientFactory factory, TransportClientBootstrap bootstrap) {
        void remove() {
            if (listening != null && listening.pipeline().get(HANDLER) != null) {
                listening.pipeline().remove(HANDLER);
            }
            if (factory != null) {
                bootstraps(factory).remove(bootstrap);
            }
        }
    }

    /**
     * Hooks {@code transport}'s server (if it has one) and client factory.
     *
     * @param accepted how to report connections its server accepts
     * @param opened   how to report connections its client factory opens
     * @throws IllegalStateException naming what was not found (not Spark's Netty transport, or not started)
     */
    static Hooked hook(Object transport, SocketTagger tagger, SocketTagger.Reporting accepted,
                       SocketTagger.Reporting opened) {
        TransportServer server = field(transport, TransportServer.class, false);
        Channel listening = null;
        if (server != null) {
            listening = field(server, ChannelFuture.class, true).channel();
            listening.pipeline().addFirst(HANDLER, new AcceptHandler(tagger, accepted));
        }
        TransportClientFactory factory = field(transport, TransportClientFactory.class, true);
        TransportClientBootstrap bootstrap = (client, channel) -> tagger.track(channel, opened);
        bootstraps(factory).add(0, bootstrap);
        for (Channel ch : pooledChannels(factory)) {
            tagger.track(ch, opened);
        }
        return new Hooked(listening, factory, bootstrap);
    }

    /** Sees each accepted child channel as it passes through the listening channel's pipeline. */
    @ChannelHandler.Sharable
    private static final class AcceptHandler extends ChannelInboundHandlerAdapter {
        private final SocketTagger tagger;
        private final SocketTagger.Reporting reporting;

        AcceptHandler(SocketTagger tagger, SocketTagger.Reporting reporting) {
            this.tagger = tagger;
            this.reporting = reporting;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel child) {
                tagger.track(child, reporting);
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * The factory's bootstrap list, swapped once for a copy-on-write list: Spark iterates it on a connecting
     * thread while we add to it.
     */
    @SuppressWarnings("unchecked")
    private static synchronized List<TransportClientBootstrap> bootstraps(TransportClientFactory factory) {
        Field f = fieldOf(factory, List.class);
        try {
            List<TransportClientBootstrap> current = (List<TransportClientBootstrap>) f.get(factory);
            if (current instanceof CopyOnWriteArrayList<TransportClientBootstrap> cow) {
                return cow;
            }
            CopyOnWriteArrayList<TransportClientBootstrap> cow = new CopyOnWriteArrayList<>(current);
            f.set(factory, cow);
            return cow;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot replace " + f, e);
        }
    }

    /** The channels of the clients the factory already holds. */
    private static List<Channel> pooledChannels(TransportClientFactory factory) {
        List<Channel> out = new ArrayList<>();
        Map<?, ?> pool = field(factory, Map.class, true);
        for (Object clientPool : pool.values()) {
            TransportClient[] clients = field(clientPool, TransportClient[].class, true);
            for (TransportClient c : clients.clone()) {
                if (c != null && c.isActive()) {
                    out.add(c.getChannel());
                }
            }
        }
        return out;
    }

    private static <T> T field(Object owner, Class<T> type, boolean required) {
        try {
            Object v = fieldOf(owner, type).get(owner);
            if (v == null && required) {
                throw new IllegalStateException(owner.getClass().getName() + "'s " + type.getSimpleName()
                        + " is not initialised (transport not started)");
            }
            return type.cast(v);
        } catch (IllegalStateException e) {
            if (required) {
                throw e;
            }
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the " + type.getSimpleName() + " of "
                    + owner.getClass().getName(), e);
        }
    }

    /** The first instance field of a {@code type} in the owner's class or its superclasses, in declaration order. */
    private static Field fieldOf(Object owner, Class<?> type) {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && type.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    return f;
                }
            }
        }
        throw new IllegalStateException(owner.getClass().getName() + " holds no " + type.getSimpleName()
                + " (not Spark's Netty transport?)");
    }
}
