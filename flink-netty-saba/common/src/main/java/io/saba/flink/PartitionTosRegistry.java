package io.saba.flink;

import io.saba.client.SocketTagging;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.runtime.io.network.partition.ResultPartition;
import org.apache.flink.runtime.io.network.partition.ResultPartitionID;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;
import org.apache.flink.shaded.netty4.io.netty.channel.ChannelOption;
import org.apache.flink.shaded.netty4.io.netty.util.AttributeKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One TaskManager's map from the partitions it produces to their TOS, and the tagging of the server sockets that
 * serve them. A request can arrive before its producer task is set up (Flink then parks it as a listener), so a
 * channel whose partition is not known yet waits here until the partition registers.
 *
 * <p>A socket carries one TOS. {@link LevelConnections} keeps levels on separate sockets, so a change of TOS on a
 * live socket only happens when a job's level changed between its partitions, or when the connection count was
 * overridden; then the latest request wins and {@link #retagged()} counts it.
 */
final class PartitionTosRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionTosRegistry.class);
    private static final AttributeKey<Integer> TOS = AttributeKey.valueOf("saba.tos");
    private static final int SWEEP_EVERY = 1024;

    private record Entry(int tos, WeakReference<ResultPartition> partition) {
        boolean gone() {
            ResultPartition p = partition.get();
            return p == null || p.isReleased();
        }
    }

    private final Map<ResultPartitionID, Entry> partitions = new ConcurrentHashMap<>();
    private final Map<ResultPartitionID, List<Channel>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong registrations = new AtomicLong();
    private final AtomicLong tagged = new AtomicLong();
    private final AtomicLong retagged = new AtomicLong();

    void register(ResultPartitionID id, int tos, ResultPartition partition) {
        partitions.put(id, new Entry(tos, new WeakReference<>(partition)));
        List<Channel> parked = waiting.remove(id);
        if (parked != null) {
            synchronized (parked) {
                parked.forEach(ch -> tag(ch, tos));
            }
        }
        if (registrations.incrementAndGet() % SWEEP_EVERY == 0) {
            sweep();
        }
    }

    void forget(Collection<ResultPartitionID> ids) {
        ids.forEach(id -> {
            partitions.remove(id);
            waiting.remove(id);
        });
    }

    /** Tags {@code channel} with the partition's TOS now, or as soon as the partition registers. */
    void requested(ResultPartitionID id, Channel channel) {
        Entry e = partitions.get(id);
        if (e != null) {
            tag(channel, e.tos());
            return;
        }
        List<Channel> parked = waiting.computeIfAbsent(id, k -> new ArrayList<>());
        synchronized (parked) {
            parked.add(channel);
        }
        // the partition may have registered between the lookup and the parking
        // (tagging twice is harmless: tag() skips a channel that already has the TOS)
        Entry late = partitions.get(id);
        if (late != null) {
            waiting.remove(id, parked);
            tag(channel, late.tos());
        }
    }

    /** Sets {@code tos} on a live socket unless it has it already. */
    synchronized void tag(Channel ch, int tos) {
        if (!ch.isActive()) {
            return;
        }
        Integer before = ch.attr(TOS).getAndSet(tos);
        if (before != null && before == tos) {
            return;
        }
        if (SocketTagging.tag(t -> {
            if (!ch.config().setOption(ChannelOption.IP_TOS, t)) {
                throw new UnsupportedOperationException(ch.getClass().getSimpleName() + " has no IP_TOS");
            }
        }, tos, ch)) {
            tagged.incrementAndGet();
            if (before != null) {
                retagged.incrementAndGet();
                LOG.debug("Saba: {} re-tagged from TOS {} to {}", ch, before, tos);
            } else {
                LOG.debug("Saba: {} tagged with TOS {}", ch, tos);
            }
        }
    }

    /** Drops released partitions and parked channels that closed (Flink does not tell us about either). */
    private void sweep() {
        partitions.values().removeIf(Entry::gone);
        waiting.values().removeIf(list -> {
            synchronized (list) {
                list.removeIf(ch -> !ch.isActive());
                return list.isEmpty();
            }
        });
    }

    long tagged() {
        return tagged.get();
    }

    long retagged() {
        return retagged.get();
    }

    int knownPartitions() {
        return partitions.size();
    }
}
