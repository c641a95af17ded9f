package io.saba.flink;

import io.saba.wire.DscpMap;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.deployment.InputGateDeploymentDescriptor;
import org.apache.flink.runtime.deployment.ResultPartitionDeploymentDescriptor;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.executiongraph.PartitionInfo;
import org.apache.flink.runtime.io.network.NettyShuffleEnvironment;
import org.apache.flink.runtime.io.network.partition.PartitionProducerStateProvider;
import org.apache.flink.runtime.io.network.partition.ResultPartition;
import org.apache.flink.runtime.io.network.partition.ResultPartitionID;
import org.apache.flink.runtime.io.network.partition.consumer.SingleInputGate;
import org.apache.flink.runtime.shuffle.NettyShuffleDescriptor;
import org.apache.flink.runtime.shuffle.ShuffleEnvironment;
import org.apache.flink.runtime.shuffle.ShuffleIOOwnerContext;
import org.apache.flink.runtime.shuffle.ShuffleMetrics;

/**
 * A TaskManager's Netty shuffle environment that learns, from each produced partition's descriptor, the TOS its
 * data must carry: the Saba master encoded the job's level in the descriptor's connection index
 * ({@link LevelConnections}). (A descriptor subclass cannot carry it: Flink's input gates accept exactly
 * {@code NettyShuffleDescriptor}.) Everything else is Flink's own environment; the tagging
 * itself happens in {@link TaggingPartitionProvider}, which Flink's Netty server calls. It also sees every task
 * the TaskManager deploys, and so reports each task's work signals when it ends ({@link TaskSignals}).
 */
public final class SabaShuffleEnvironment implements ShuffleEnvironment<ResultPartition, SingleInputGate> {
    private final NettyShuffleEnvironment netty;
    private final PartitionTosRegistry registry;
    private final DscpMap dscpMap;
    private final TaskSignals signals;

    /**
     * @param registry where partitions' TOS go for the tagging, or null when {@code saba.tag-connections} is false
     * @param signals  the tasks' work signals, or null when {@code saba.signals.enabled} is false
     */
    SabaShuffleEnvironment(NettyShuffleEnvironment netty, PartitionTosRegistry registry, DscpMap dscpMap,
                           TaskSignals signals) {
        this.netty = netty;
        this.registry = registry;
        this.dscpMap = dscpMap;
        this.signals = signals;
    }

    @Override
    public int start() throws IOException {
        return netty.start();
    }

    @Override
    public ShuffleIOOwnerContext createShuffleIOOwnerContext(String ownerName, ExecutionAttemptID executionAttemptID,
                                                             MetricGroup parentGroup) {
        ShuffleIOOwnerContext c = netty.createShuffleIOOwnerContext(ownerName, executionAttemptID, parentGroup);
        return signals == null ? c : signals.withInputCounters(c);
    }

    @Override
    public List<ResultPartition> createResultPartitionWriters(ShuffleIOOwnerContext ownerContext,
                                                              List<ResultPartitionDeploymentDescriptor> descriptors) {
        List<ResultPartition> partitions = netty.createResultPartitionWriters(ownerContext, descriptors);
        if (registry == null) {
            return partitions; // saba.tag-connections is false
        }
        for (int i = 0; i < descriptors.size(); i++) {
            ResultPartition partition = partitions.get(i);
            if (descriptors.get(i).getShuffleDescriptor() instanceof NettyShuffleDescriptor d && !d.isUnknown()) {
                networkIndex(d).ifPresent(index -> registry.register(d.getResultPartitionID(),
                        dscpMap.tos(LevelConnections.level(index, dscpMap.levels())), partition));
            }
        }
        return partitions;
    }

    /** The connection index of a partition served over the network; empty for local-only execution. */
    private static Optional<Integer> networkIndex(NettyShuffleDescriptor d) {
        try {
            return Optional.of(d.getConnectionId().getConnectionIndex());
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    @Override
    public void releasePartitionsLocally(Collection<ResultPartitionID> partitionIds) {
        netty.releasePartitionsLocally(partitionIds);
        if (registry != null) {
            registry.forget(partitionIds);
        }
    }

    @Override
    public Collection<ResultPartitionID> getPartitionsOccupyingLocalResources() {
        return netty.getPartitionsOccupyingLocalResources();
    }

    @Override
    public Optional<ShuffleMetrics> getMetricsIfPartitionOccupyingLocalResource(ResultPartitionID partitionId) {
        return netty.getMetricsIfPartitionOccupyingLocalResource(partitionId);
    }

    @Override
    public List<SingleInputGate> createInputGates(ShuffleIOOwnerContext ownerContext,
                                                  PartitionProducerStateProvider producerStateProvider,
                                                  List<InputGateDeploymentDescriptor> descriptors) {
        List<SingleInputGate> gates = netty.createInputGates(ownerContext, producerStateProvider, descriptors);
        if (signals != null) {
            signals.watch(ownerContext, producerStateProvider, gates.size());
        }
        return gates;
    }

    @Override
    public boolean updatePartitionInfo(ExecutionAttemptID consumerID, PartitionInfo partitionInfo)
            throws IOException, InterruptedException {
        return netty.updatePartitionInfo(consumerID, partitionInfo);
    }

    /** Sockets tagged so far (a socket re-tagged counts again). */
    public long taggedConnections() {
        return registry == null ? 0 : registry.tagged();
    }

    /** Tag changes on live sockets (levels sharing a socket). */
    public long retaggedConnections() {
        return registry == null ? 0 : registry.retagged();
    }

    @Override
    public void close() throws Exception {
        try {
            netty.close();
        } finally {
            if (signals != null) {
                signals.close();
            }
        }
    }
}
