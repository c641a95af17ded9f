package io.saba.flink;

import io.saba.client.FallbackPolicy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.SchedulerExecutionMode;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.LocalConnectionManager;
import org.apache.flink.runtime.io.network.NettyShuffleEnvironment;
import org.apache.flink.runtime.io.network.NettyShuffleServiceFactory;
import org.apache.flink.runtime.io.network.netty.NettyConnectionManager;
import org.apache.flink.runtime.io.network.partition.ResultPartition;
import org.apache.flink.runtime.io.network.partition.ResultPartitionManager;
import org.apache.flink.runtime.io.network.partition.consumer.SingleInputGate;
import org.apache.flink.runtime.shuffle.NettyShuffleDescriptor;
import org.apache.flink.runtime.shuffle.ShuffleEnvironment;
import org.apache.flink.runtime.shuffle.ShuffleEnvironmentContext;
import org.apache.flink.runtime.shuffle.ShuffleMaster;
import org.apache.flink.runtime.shuffle.ShuffleMasterContext;
import org.apache.flink.runtime.shuffle.ShuffleServiceFactory;
import org.apache.flink.runtime.taskmanager.NettyShuffleEnvironmentConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saba's drop-in for Flink's Netty shuffle: {@code shuffle-service-factory.class: io.saba.flink.SabaShuffleServiceFactory}.
 * Data still moves through Flink's own Netty shuffle; the master side registers jobs with the Saba controller and the
 * TaskManager side tags each job's data sockets with its DSCP. Configuration: {@link SabaOptions}.
 */
public final class SabaShuffleServiceFactory
        implements ShuffleServiceFactory<NettyShuffleDescriptor, ResultPartition, SingleInputGate> {
    private static final Logger LOG = LoggerFactory.getLogger(SabaShuffleServiceFactory.class);

    private final NettyShuffleServiceFactory netty = new NettyShuffleServiceFactory();

    @Override
    public ShuffleMaster<NettyShuffleDescriptor> createShuffleMaster(ShuffleMasterContext context) {
        SabaSettings settings = SabaSettings.from(context.getConfiguration());
        if (settings.fallback() == FallbackPolicy.ALWAYS) {
            LOG.info("Saba: {} is ALWAYS: Flink's own shuffle, no controller, no tagging",
                    SabaOptions.FALLBACK.key());
            return netty.createShuffleMaster(context);
        }
        Configuration conf = context.getConfiguration();
        // the adaptive scheduler checks that partition registration completes at once
        boolean immediate = conf.get(JobManagerOptions.SCHEDULER) == JobManagerOptions.SchedulerType.Adaptive
                || conf.get(JobManagerOptions.SCHEDULER_MODE) == SchedulerExecutionMode.REACTIVE;
        return new SabaShuffleMaster(netty.createShuffleMaster(context), settings, immediate);
    }

    @Override
    public ShuffleEnvironment<ResultPartition, SingleInputGate> createShuffleEnvironment(
            ShuffleEnvironmentContext context) {
        SabaSettings settings = SabaSettings.from(context.getConfiguration());
        if (settings.fallback() == FallbackPolicy.ALWAYS || !settings.tagConnections() && !settings.signals()) {
            return netty.createShuffleEnvironment(context);
        }
        Configuration conf = new Configuration(context.getConfiguration());
        if (settings.tagConnections()) {
            int levels = settings.dscpMap().levels();
            int configured = conf.get(NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS);
            int connections = LevelConnections.connectionCount(configured, levels);
            if (connections != configured) {
                LOG.info("Saba: {} raised from {} to {} so that each of the {} levels has its own connections",
                        NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS.key(), configured, connections,
                        levels);
                conf.set(NettyShuffleEnvironmentOptions.MAX_NUM_TCP_CONNECTIONS, connections);
            }
        }
        NettyShuffleEnvironmentConfiguration nc = NettyShuffleEnvironmentConfiguration.fromConfiguration(conf,
                context.getNetworkMemorySize(), context.isLocalCommunicationOnly(), context.getHostAddress());
        ResultPartitionManager partitions = new ResultPartitionManager(nc.getPartitionRequestListenerTimeout(),
                context.getScheduledExecutor());
        PartitionTosRegistry registry = settings.tagConnections() ? new PartitionTosRegistry() : null;
        NettyShuffleEnvironment env = NettyShuffleServiceFactory.createNettyShuffleEnvironment(nc,
                context.getTaskExecutorResourceId(), context.getEventPublisher(), partitions,
                connections(context, nc, partitions, registry, settings), context.getParentMetricGroup(),
                context.getIoExecutor(), context.getNumberOfSlots(), context.getTmpDirPaths());
        TaskSignals signals = settings.signals() ? new TaskSignals(settings, new TaskManagerReports(settings)) : null;
        return new SabaShuffleEnvironment(env, registry, settings.dscpMap(), signals);
    }

    /**
     * The connection manager Flink builds, except that, with tagging, its server asks our provider, which tags the
     * server sockets, and its client sockets are tagged as they are created.
     */
    private static ConnectionManager connections(ShuffleEnvironmentContext context,
                                                 NettyShuffleEnvironmentConfiguration nc,
                                                 ResultPartitionManager partitions, PartitionTosRegistry registry,
                                                 SabaSettings settings) {
        if (nc.nettyConfig() == null) {
            return new LocalConnectionManager();
        }
        if (registry == null) {
            return new NettyConnectionManager(partitions, context.getEventPublisher(), nc.nettyConfig(),
                    nc.getMaxNumberOfConnections(), nc.isConnectionReuseEnabled());
        }
        return new TaggingConnectionManager(new NettyConnectionManager(
                new TaggingPartitionProvider(partitions, registry), context.getEventPublisher(),
                nc.nettyConfig(), nc.getMaxNumberOfConnections(), nc.isConnectionReuseEnabled()),
                registry, settings.dscpMap());
    }
}
