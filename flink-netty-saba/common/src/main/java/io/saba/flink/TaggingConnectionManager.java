package io.saba.flink;

import io.saba.wire.DscpMap;
import java.io.IOException;
import org.apache.flink.runtime.io.network.ConnectionID;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.PartitionRequestClient;
import org.apache.flink.shaded.netty4.io.netty.channel.Channel;

/**
 * The consumer's half: Flink's connection manager, except that each client socket is tagged with the level its
 * connection index stands for ({@link LevelConnections}) before the first partition request is written on it, so
 * requests, credits and acknowledgements travel in the job's class too. (The data itself flows the other way, on
 * the server side, which {@link TaggingPartitionProvider} tags.)
 */
final class TaggingConnectionManager implements ConnectionManager {
    private final ConnectionManager netty;
    private final PartitionTosRegistry tagger;
    private final DscpMap dscpMap;

    TaggingConnectionManager(ConnectionManager netty, PartitionTosRegistry tagger, DscpMap dscpMap) {
        this.netty = netty;
        this.tagger = tagger;
        this.dscpMap = dscpMap;
    }

    @Override
    public int start() throws IOException {
        return netty.start();
    }

    @Override
    public PartitionRequestClient createPartitionRequestClient(ConnectionID id)
            throws IOException, InterruptedException {
        PartitionRequestClient client = netty.createPartitionRequestClient(id);
        Channel ch = NettyChannels.client(client);
        if (ch != null) {
            tagger.tag(ch, dscpMap.tos(LevelConnections.level(id.getConnectionIndex(), dscpMap.levels())));
        }
        return client;
    }

    @Override
    public void closeOpenChannelConnections(ConnectionID id) {
        netty.closeOpenChannelConnections(id);
    }

    @Override
    public int getNumberOfActiveConnections() {
        return netty.getNumberOfActiveConnections();
    }

    @Override
    public void shutdown() throws IOException {
        netty.shutdown();
    }
}
