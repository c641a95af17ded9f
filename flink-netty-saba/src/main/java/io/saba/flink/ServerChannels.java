package io.saba.flink;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.runtime.io.network.partition.BufferAvailabilityListener;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the server-side socket of a partition request. Flink's Netty server hands the partition provider its
 * per-request reader as the availability listener; the reader holds the connection's request queue, which holds the
 * channel's handler context. Flink exposes neither (no TOS option, no server bootstrap hook), so this reads the two
 * package-private fields by reflection, checked against Flink 1.20; when they are missing (another Flink version),
 * it logs one warning and the data stays untagged, never failing the request.
 */
final class ServerChannels {
    private static final Logger LOG = LoggerFactory.getLogger(ServerChannels.class);
    private static final String READER = "org.apache.flink.runtime.io.network.netty.CreditBasedSequenceNumberingViewReader";
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    private static volatile Field requestQueue;
    private static volatile Field ctx;

    private ServerChannels() {
    }

    /** The channel serving {@code listener}'s request, or null when it cannot be found. */
    static Channel of(BufferAvailabilityListener listener) {
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
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("Saba: cannot reach Flink's Netty server channels ({}); data connections stay untagged. "
                        + "Supported: Flink 1.20.", e.toString());
            }
            return null;
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
