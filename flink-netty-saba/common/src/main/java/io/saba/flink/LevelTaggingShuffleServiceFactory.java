package io.saba.flink;

import io.saba.client.FallbackPolicy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.SchedulerExecutionMode;
import org.apache.flink.runtime.io.network.ConnectionManager;
import org.apache.flink.runtime.io.network.LocalConnectionManager;
import org.apache.flink.runtime.io.network.NettyShuffleEnvironment;
import org.apache.flink.runtime.io.network.NettyShuffleServiceFactory;
import org.apache.flink.runtime.io.network.partition.ResultPartition;
import org.apache.flink.runtime.io.network.partition.ResultPartitionManager;
import org.apache.flink.runtime.io.network.partition.ResultPartitionProvider;
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
 * What every Flink version's {@code SabaShuffleServiceFactory} shares: data still moves through Flink's own Netty
 * shuffle; the master side registers jobs with the Saba controller and the TaskManager side tags each job's data
 * sockets with its DSCP. Only how each level gets data connections of its own differs by Flink version (Flink 1.x
 * pools connections by index modulo a configured count, Flink 2 keeps one per TaskManager pair), so each version
 * module's factory extends this class and does only that. Configuration: {@link SabaOptions}.
 */
abstract class LevelTaggingShuffleServiceFactory
        implements ShuffleServiceFactory<NettyShuffleDescriptor, ResultPartition, SingleInputGate> {
    private static final Logger LOG = LoggerFactory.getLogger(LevelTaggingShuffleServiceFactory.class);

    private final NettyShuffleServiceFactory netty = new NettyShuffleServiceFactory();

    @Override
    public final ShuffleMaster<NettyShuffleDescriptor> createShuffleMaster(ShuffleMasterContext context) {
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
    public final ShuffleEnvironment<ResultPartition, SingleInputGate> createShuffleEnvironment(
            ShuffleEnvironmentContext context) {
        SabaSettings settings = SabaSettings.from(context.getConfiguration());
        if (settings.fallback() == FallbackPolicy.ALWAYS || !settings.tagConnections() && !settings.signals()) {
            return netty.createShuffleEnvironment(context);
        }
        int levels = settings.tagConnections() ? settings.dscpMap().levels() : 1;
        Configuration conf = new Configuration(context.getConfiguration());
        prepareConnections(conf, levels);
        NettyShuffleEnvironmentConfiguration nc = NettyShuffleEnvironmentConfiguration.fromConfiguration(conf,
                context.getNetworkMemorySize(), context.isLocalCommunicationOnly(), context.getHostAddress());
        ResultPartitionManager partitions = new ResultPartitionManager(nc.getPartitionRequestListenerTimeout(),
                context.getScheduledExecutor());
        PartitionTosRegistry registry = settings.tagConnections() ? new PartitionTosRegistry() : null;
        NettyShuffleEnvironment env = NettyShuffleServiceFactory.createNettyShuffleEnvironment(nc,
                context.getTaskExecutorResourceId(), context.getEventPublisher(), partitions,
                connections(context, nc, partitions, registry, settings, levels), context.getParentMetricGroup(),
                context.getIoExecutor(), context.getNumberOfSlots(), context.getTmpDirPaths());
        TaskSignals signals = settings.signals() ? new TaskSignals(settings, new TaskManagerReports(settings)) : null;
        return new SabaShuffleEnvironment(env, registry, settings.dscpMap(), signals);
    }

    /**
     * The connection manager Flink builds, except that, with tagging, its server asks our provider, which tags the
     * server sockets, and its client sockets are tagged as they are created.
     */
    private ConnectionManager connections(ShuffleEnvironmentContext context, NettyShuffleEnvironmentConfiguration nc,
                                          ResultPartitionManager partitions, PartitionTosRegistry registry,
                                          SabaSettings settings, int levels) {
        if (nc.nettyConfig() == null) {
            return new LocalConnectionManager();
        }
        if (registry == null) {
            return nettyConnections(partitions, context, nc, 1);
        }
        return new TaggingConnectionManager(nettyConnections(new TaggingPartitionProvider(partitions, registry),
                context, nc, levels), registry, settings.dscpMap());
    }

    /**
     * Adjusts the TaskManager's configuration before Flink reads it, so that {@code levels} levels can have
     * connections of their own; {@code levels} is 1 without tagging.
     */
    abstract void prepareConnections(Configuration conf, int levels);

    /**
     * Flink's Netty connection manager serving {@code partitions}, in which a connection index that stands for a
     * level ({@link LevelConnections#level}) never shares a client connection with another level's.
     */
    abstract ConnectionManager nettyConnections(ResultPartitionProvider partitions, ShuffleEnvironmentContext context,
                                                NettyShuffleEnvironmentConfiguration nc, int levels);
}
