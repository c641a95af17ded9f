package io.saba.flink;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.runtime.io.network.PartitionRequestClient;
import org.apache.flink.runtime.io.network.partition.BufferAvailabilityListener;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the sockets of Flink's Netty shuffle, which Flink does not expose (no TOS option, no bootstrap hook).
 * Server side: Flink's server hands the partition provider its per-request reader as the availability listener;
 * the reader holds the connection's request queue, which holds the channel's handler context. Client side: the
 * partition request client holds its channel. Each is a package-private field read by reflection, checked against
 * Flink 1.20; when a field is missing (another Flink version) this logs one warning and the socket stays untagged,
 * never failing the request.
 */
final class NettyChannels {
    private static final Logger LOG = LoggerFactory.getLogger(NettyChannels.class);
    private static final String READER = "org.apache.flink.runtime.io.network.netty.CreditBasedSequenceNumberingViewReader";
    private static final String CLIENT = "org.apache.flink.runtime.io.network.netty.NettyPartitionRequestClient";
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static volatile Field requestQueue;
    private static volatile Field ctx;
    private static volatile Field tcpChannel;

    private NettyChannels() {
    }

    /** The channel serving {@code listener}'s request, or null when it cannot be found. */
    static Channel server(BufferAvailabilityListener listener) {
        if (listener == null || !READER.equals(listener.getClass().getName())) {
            return null; // e.g. a local input channel: no socket
        }
        try {
            if (requestQueue == null) {
                Field q = field(listener.getClass(), "requestQueue");
                ctx = field(q.getType(), "ctx");
                requestQueue = q;
            }
            Object queue = requestQueue.get(listener);
            Object c = queue == null ? null : ctx.get(queue);
            return c instanceof ChannelHandlerContext h ? h.channel() : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            warn(e);
            return null;
        }
    }

    /** The channel of a partition request client, or null when it cannot be found. */
    static Channel client(PartitionRequestClient client) {
        if (client == null || !CLIENT.equals(client.getClass().getName())) {
            return null;
        }
        try {
            if (tcpChannel == null) {
                tcpChannel = field(client.getClass(), "tcpChannel");
            }
            return tcpChannel.get(client) instanceof Channel c ? c : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            warn(e);
            return null;
        }
    }

    private static void warn(Exception e) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("Saba: cannot reach Flink's Netty channels ({}); data connections stay untagged. "
                    + "Supported: Flink 1.20.", e.toString());
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(type.getName() + "." + name);
    }
}
