package io.saba.flink;

import java.io.IOException;
import java.util.Optional;
import org.apache.flink.runtime.io.network.partition.BufferAvailabilityListener;
import org.apache.flink.runtime.io.network.partition.PartitionRequestListener;
import org.apache.flink.runtime.io.network.partition.ResultPartitionID;
import org.apache.flink.runtime.io.network.partition.ResultPartitionProvider;
import org.apache.flink.runtime.io.network.partition.ResultSubpartitionIndexSet;
import org.apache.flink.runtime.io.network.partition.ResultSubpartitionView;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;

/**
 * The partition provider Flink's Netty server asks for every remote partition request; this is the one place on a
 * TaskManager that sees both the requested partition and (through the request's reader) the socket that will carry
 * its data, so it tags the socket before a byte of the partition is sent.
 */
final class TaggingPartitionProvider implements ResultPartitionProvider {
    private final ResultPartitionProvider partitions;
    private final PartitionTosRegistry registry;

    TaggingPartitionProvider(ResultPartitionProvider partitions, PartitionTosRegistry registry) {
        this.partitions = partitions;
        this.registry = registry;
    }

    @Override
    public ResultSubpartitionView createSubpartitionView(ResultPartitionID partitionId,
                                                         ResultSubpartitionIndexSet indexSet,
                                                         BufferAvailabilityListener listener) throws IOException {
        tag(partitionId, listener);
        return partitions.createSubpartitionView(partitionId, indexSet, listener);
    }

    @Override
    public Optional<ResultSubpartitionView> createSubpartitionViewOrRegisterListener(
            ResultPartitionID partitionId, ResultSubpartitionIndexSet indexSet, BufferAvailabilityListener listener,
            PartitionRequestListener requestListener) throws IOException {
        tag(partitionId, listener);
        return partitions.createSubpartitionViewOrRegisterListener(partitionId, indexSet, listener,
                requestListener);
    }

    @Override
    public void releasePartitionRequestListener(PartitionRequestListener listener) {
        partitions.releasePartitionRequestListener(listener);
    }

    private void tag(ResultPartitionID id, BufferAvailabilityListener listener) {
        Channel ch = NettyChannels.server(listener);
        if (ch != null) {
            registry.requested(id, ch);
        }
    }
}
