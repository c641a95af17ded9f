package org.apache.flink.runtime.io.network.netty;

import java.io.IOException;
import java.util.function.ToIntFunction;
import org.apache.flink.runtime.io.network.ConnectionID;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.PartitionRequestClient;
import org.apache.flink.runtime.io.network.TaskEventPublisher;
import org.apache.flink.runtime.io.network.partition.ResultPartitionProvider;

/**
 * Flink 2's Netty connection manager with one partition-request client factory per Saba level over its one Netty
 * client, so partitions of different levels never share a socket. Flink 2's factory pools clients by producer
 * alone (it sets every connection index to 0); a factory per level keeps that pooling within a level.
 *
 * <p>It sits in Flink's package because the factory and the manager's client are package-private; it uses them
 * exactly as {@link NettyConnectionManager} does.
 */
public final class LevelConnectionManager implements ConnectionManager {
    private final NettyConnectionManager netty;
    private final PartitionRequestClientFactory[] levels;
    private final ToIntFunction<ConnectionID> levelOf;

    /**
     * @param levelOf the level a consumer's connection id stands for, in {@code [0, levels)}
     */
    public LevelConnectionManager(ResultPartitionProvider partitions, TaskEventPublisher events, NettyConfig config,
                                  boolean connectionReuseEnabled, int levels, ToIntFunction<ConnectionID> levelOf) {
        this.netty = new NettyConnectionManager(partitions, events, config, connectionReuseEnabled);
        this.levels = new PartitionRequestClientFactory[levels];
        for (int i = 0; i < levels; i++) {
            this.levels[i] = new PartitionRequestClientFactory(netty.getClient(), config.getNetworkRetries(),
                    connectionReuseEnabled);
        }
        this.levelOf = levelOf;
    }

    @Override
    public int start() throws IOException {
        return netty.start();
    }

    @Override
    public PartitionRequestClient createPartitionRequestClient(ConnectionID id)
            throws IOException, InterruptedException {
        return factory(id).createPartitionRequestClient(id);
    }

    @Override
    public void closeOpenChannelConnections(ConnectionID id) {
        factory(id).closeOpenChannelConnections(id);
    }

    @Override
    public int getNumberOfActiveConnections() {
        int n = 0;
        for (PartitionRequestClientFactory f : levels) {
            n += f.getNumberOfActiveClients();
        }
        return n;
    }

    @Override
    public void shutdown() throws IOException {
        netty.shutdown();
    }

    private PartitionRequestClientFactory factory(ConnectionID id) {
        return levels[levelOf.applyAsInt(id)];
    }
}
