package io.saba.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.netty.NettyConnectionManager;
import org.apache.flink.runtime.io.network.partition.ResultPartitionProvider;
import org.apache.flink.runtime.shuffle.ShuffleEnvironmentContext;
import org.apache.flink.runtime.taskmanager.NettyShuffleEnvironmentConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saba's drop-in for Flink 1.20's Netty shuffle:
 * {@code shuffle-service-factory.class: io.saba.flink.SabaShuffleServiceFactory}.
 *
 * <p>Flink 1.x pools data connections by connection index modulo
 * {@code taskmanager.network.max-num-tcp-connections}, so levels get connections of their own by raising that count
 * to a multiple of the number of levels ({@link LevelConnections}). Everything else is shared:
 * {@link LevelTaggingShuffleServiceFactory}.
 */
public final class SabaShuffleServiceFactory extends LevelTaggingShuffleServiceFactory {
    private static final Logger LOG = LoggerFactory.getLogger(SabaShuffleServiceFactory.class);

    @Override
    void prepareConnections(Configuration conf, int levels) {
        int configured = conf.get(NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS);
        int connections = LevelConnections.connectionCount(configured, levels);
        if (connections != configured) {
            LOG.info("Saba: {} raised from {} to {} so that each of the {} levels has its own connections",
                    NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS.key(), configured, connections, levels);
            conf.set(NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS, connections);
        }
    }

    @Override
    ConnectionManager nettyConnections(ResultPartitionProvider partitions, ShuffleEnvironmentContext context,
                                       NettyShuffleEnvironmentConfiguration nc, int levels) {
        return new NettyConnectionManager(partitions, context.getEventPublisher(), nc.nettyConfig(),
                nc.getMaxNumberOfConnections(), nc.isConnectionReuseEnabled());
    }
}
