package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.lang.reflect.Field;
import org.apache.spark.network.BlockTransferService;
import org.apache.spark.network.server.TransportServer;

/**
 * Finds the listening Netty channel of an executor's block-transfer server. Spark exposes no hook, so this reads
 * two private fields by type (not by name, to survive renames): NettyBlockTransferService's TransportServer and
 * that server's bind ChannelFuture (both in Spark 3.5: {@code NettyBlockTransferService.server},
 * {@code TransportServer.channelFuture}). Spark's classes sit in the unnamed module, so no --add-opens is needed.
 */
final class ServerHook {
    private ServerHook() {
    }

    /** The listening channel, or throws IllegalStateException saying what was not found. */
    static Channel listeningChannel(BlockTransferService service) {
        TransportServer server = fieldOfType(service, TransportServer.class);
        ChannelFuture bound = fieldOfType(server, ChannelFuture.class);
        return bound.channel();
    }

    private static <T> T fieldOfType(Object owner, Class<T> type) {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (type.isAssignableFrom(f.getType())) {
                    try {
                        f.setAccessible(true);
                        Object v = f.get(owner);
                        if (v != null) {
                            return type.cast(v);
                        }
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        throw new IllegalStateException("cannot read " + c.getName() + "." + f.getName(), e);
                    }
                }
            }
        }
        throw new IllegalStateException(owner.getClass().getName() + " holds no initialised " + type.getSimpleName()
                + " (not Spark's Netty block transfer service, or not started)");
    }
}
