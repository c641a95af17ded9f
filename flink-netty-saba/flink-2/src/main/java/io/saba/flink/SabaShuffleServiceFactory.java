package io.saba.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.netty.LevelConnectionManager;
import org.apache.flink.runtime.io.network.netty.NettyConnectionManager;
import org.apache.flink.runtime.io.network.partition.ResultPartitionProvider;
import org.apache.flink.runtime.shuffle.ShuffleEnvironmentContext;
import org.apache.flink.runtime.taskmanager.NettyShuffleEnvironmentConfiguration;

/**
 * Saba's drop-in for Flink 2.0 and 2.1's Netty shuffle:
 * {@code shuffle-service-factory.class: io.saba.flink.SabaShuffleServiceFactory}.
 *
 * <p>Flink 2 removed {@code taskmanager.network.max-num-tcp-connections} and keeps one data connection per
 * TaskManager pair (its client factory drops the connection index), which would put every level's data on one
 * socket with one TOS. So each level gets a client factory of its own over Flink's one Netty client
 * ({@link LevelConnectionManager}): one connection per TaskManager pair and level. Everything else is shared:
 * {@link LevelTaggingShuffleServiceFactory}.
 */
public final class SabaShuffleServiceFactory extends LevelTaggingShuffleServiceFactory {
    @Override
    void prepareConnections(Configuration conf, int levels) {
        // nothing to raise: the levels' pools are separate connection managers' worth of clients
    }

    @Override
    ConnectionManager nettyConnections(ResultPartitionProvider partitions, ShuffleEnvironmentContext context,
                                       NettyShuffleEnvironmentConfiguration nc, int levels) {
        if (levels == 1) {
            return new NettyConnectionManager(partitions, context.getEventPublisher(), nc.nettyConfig(),
                    nc.isConnectionReuseEnabled());
        }
        return new LevelConnectionManager(partitions, context.getEventPublisher(), nc.nettyConfig(),
                nc.isConnectionReuseEnabled(), levels, id -> LevelConnections.level(id.getConnectionIndex(), levels));
    }
}
