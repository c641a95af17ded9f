package io.saba.flink;

import io.saba.client.AppSpec;
import io.saba.client.SabaApplication;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.io.network.partition.ResultPartitionID;
import org.apache.flink.runtime.shuffle.JobShuffleContext;
import org.apache.flink.runtime.shuffle.NettyShuffleDescriptor;
import org.apache.flink.runtime.shuffle.NettyShuffleDescriptor.NetworkPartitionConnectionInfo;
import org.apache.flink.runtime.shuffle.PartitionDescriptor;
import org.apache.flink.runtime.shuffle.PartitionWithMetrics;
import org.apache.flink.runtime.shuffle.ProducerDescriptor;
import org.apache.flink.runtime.shuffle.ShuffleDescriptor;
import org.apache.flink.runtime.shuffle.ShuffleMaster;
import org.apache.flink.runtime.shuffle.ShuffleMasterSnapshot;
import org.apache.flink.runtime.shuffle.ShuffleMasterSnapshotContext;
import org.apache.flink.runtime.shuffle.TaskInputsOutputsDescriptor;
import org.apache.flink.configuration.MemorySize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flink's Netty shuffle master plus Saba: each job is an application of the controller from
 * {@link #registerJob} to {@link #unregisterJob}; each partition's connection index is moved to one congruent to
 * the job's level, which both keeps levels on separate sockets and tells the producing TaskManager which DSCP the
 * partition's data carries ({@link LevelConnections}).
 *
 * <p>Connections reported: Flink's master knows where producers run (host and data port) but not which TaskManager
 * will consume, so for every pair of TaskManagers that produce data for the job it reports both directions, data
 * port to data port. That is the set of host pairs an all-to-all shuffle uses; a TaskManager that only consumes is
 * not seen. Nothing here ever fails a job because of the controller, unless {@code saba.fail-fast} is set.
 */
public final class SabaShuffleMaster implements ShuffleMaster<NettyShuffleDescriptor> {
    private static final Logger LOG = LoggerFactory.getLogger(SabaShuffleMaster.class);

    private final ShuffleMaster<NettyShuffleDescriptor> netty;
    private final SabaSettings settings;
    private final boolean immediate;
    private final Map<JobID, JobState> jobs = new ConcurrentHashMap<>();
    private volatile ControllerLink link;

    /**
     * One job: its application handle, the TaskManager data endpoints seen producing for it, when its partitions may
     * be stamped (once its first level arrived or the wait ran out), and (fail-fast only) why they are refused.
     */
    private record JobState(SabaApplication app, Set<InetSocketAddress> endpoints,
                            CompletableFuture<?> firstLevel, String refusal) {
        JobState accepted() {
            return new JobState(app, endpoints, firstLevel, null);
        }
    }

    /**
     * @param immediate true when Flink requires partition registrations to complete at once (the adaptive
     *                  scheduler, reactive mode): then partitions never wait for a job's first level
     */
    SabaShuffleMaster(ShuffleMaster<NettyShuffleDescriptor> netty, SabaSettings settings, boolean immediate) {
        this.netty = netty;
        this.settings = settings;
        this.immediate = immediate;
    }

    @Override
    public void start() throws Exception {
        netty.start();
        link();
    }

    private ControllerLink link() {
        ControllerLink l = link;
        if (l == null) {
            synchronized (this) {
                if (link == null) {
                    link = ControllerLink.open(settings);
                }
                l = link;
            }
        }
        return l;
    }

    @Override
    public void registerJob(JobShuffleContext context) {
        netty.registerJob(context);
        JobID id = context.getJobId();
        String workload = JobConfigurations.of(context)
                .map(c -> c.get(SabaOptions.WORKLOAD).trim())
                .filter(w -> !w.isEmpty())
                .orElse(settings.workload());
        SabaApplication app = link().client().register(new AppSpec(id.toHexString(), workload, "flink",
                System.getProperty("user.name", ""), 0));
        if (settings.failFast()) {
            String refusal = awaitFirstLevel(id, app);
            jobs.put(id, new JobState(app, ConcurrentHashMap.newKeySet(), CompletableFuture.completedFuture(null),
                    refusal));
            return;
        }
        // never block the JobMaster's thread: the answer usually arrives while slots are being allocated, and
        // partition registrations that come earlier wait for it (bounded), so the first partitions carry the level
        CompletableFuture<?> firstLevel = settings.registerWait().isZero() || immediate
                ? CompletableFuture.completedFuture(null)
                : app.assigned().copy().completeOnTimeout(0, settings.registerWait().toNanos(), TimeUnit.NANOSECONDS);
        app.assigned().thenAccept(level -> LOG.info("Saba: job {} (workload '{}') at level {}", id,
                workload, level));
        jobs.put(id, new JobState(app, ConcurrentHashMap.newKeySet(), firstLevel, null));
    }

    /**
     * Fail-fast only: waits up to the controller timeout for the registration's answer (the operator asked for
     * this wait). A controller already known to be down answers at once.
     *
     * @return null, or why the job's partitions are refused. Fail-fast fails the job through its first partition
     *         registration rather than here: an exception from registerJob would stop the JobMaster itself, which
     *         Flink treats as a fatal error of the cluster.
     */
    private String awaitFirstLevel(JobID id, SabaApplication app) {
        boolean answered = false;
        try {
            app.assigned().get(settings.timeout().toNanos(), TimeUnit.NANOSECONDS);
            answered = link().client().controllerReachable();
        } catch (TimeoutException | ExecutionException e) {
            answered = false; // (assigned() never fails; ExecutionException only for completeness)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!answered) {
            String why = "Saba controller at " + link().target() + " did not register job " + id + " within "
                    + settings.timeout() + " and " + SabaOptions.FAIL_FAST.key() + " is true";
            LOG.error(why);
            return why;
        }
        LOG.info("Saba: job {} registered (workload '{}', level {})", id, app.spec().workload(), app.level());
        return null;
    }

    @Override
    public void unregisterJob(JobID jobId) {
        try {
            netty.unregisterJob(jobId);
        } finally {
            JobState s = jobs.remove(jobId);
            if (s != null) {
                s.app().deregister();
                LOG.info("Saba: job {} deregistered", jobId);
            }
        }
    }

    @Override
    public CompletableFuture<NettyShuffleDescriptor> registerPartitionWithProducer(
            JobID jobId, PartitionDescriptor partition, ProducerDescriptor producer) {
        CompletableFuture<NettyShuffleDescriptor> f = netty.registerPartitionWithProducer(jobId, partition, producer);
        JobState s = jobs.get(jobId);
        if (s == null || producer.getDataPort() < 0) {
            return f; // an unknown job, or a local-only TaskManager: no network connection to tag
        }
        InetSocketAddress endpoint = new InetSocketAddress(producer.getAddress(), producer.getDataPort());
        if (s.endpoints().add(endpoint)) {
            for (InetSocketAddress other : List.copyOf(s.endpoints())) {
                if (!other.equals(endpoint)) {
                    s.app().connectionOpened(endpoint, other, Transport.TCP);
                    s.app().connectionOpened(other, endpoint, Transport.TCP);
                }
            }
        }
        if (s.refusal() != null) {
            if (!link().client().controllerReachable()) {
                return CompletableFuture.failedFuture(new IllegalStateException(s.refusal()));
            }
            jobs.put(jobId, s.accepted()); // the controller came back before Flink restarted the job
        }
        if (!settings.tagConnections()) {
            return f;
        }
        SabaApplication app = s.app();
        return f.thenCombine(s.firstLevel(), (d, ignored) -> stamped(d, endpoint, app.level()));
    }

    /** Flink's descriptor with its connection index moved to the job's level (see {@link LevelConnections}). */
    private NettyShuffleDescriptor stamped(NettyShuffleDescriptor d, InetSocketAddress endpoint, int assigned) {
        int levels = settings.dscpMap().levels();
        int level = assigned < levels ? assigned : 0; // beyond the DSCP map: the default class, as DscpMap does
        return new NettyShuffleDescriptor(d.storesLocalResourcesOn().orElseThrow(),
                new NetworkPartitionConnectionInfo(endpoint,
                        LevelConnections.index(d.getConnectionId().getConnectionIndex(), level, levels)),
                d.getResultPartitionID(), d.getTierShuffleDescriptors());
    }

    @Override
    public void releasePartitionExternally(ShuffleDescriptor shuffleDescriptor) {
        netty.releasePartitionExternally(shuffleDescriptor);
    }

    @Override
    public MemorySize computeShuffleMemorySizeForTask(TaskInputsOutputsDescriptor descriptor) {
        return netty.computeShuffleMemorySizeForTask(descriptor);
    }

    @Override
    public CompletableFuture<Collection<PartitionWithMetrics>> getPartitionWithMetrics(
            JobID jobId, java.time.Duration timeout, Set<ResultPartitionID> expectedPartitions) {
        return netty.getPartitionWithMetrics(jobId, timeout, expectedPartitions);
    }

    @Override
    public boolean supportsBatchSnapshot() {
        return netty.supportsBatchSnapshot();
    }

    @Override
    public void snapshotState(CompletableFuture<ShuffleMasterSnapshot> snapshotFuture,
                              ShuffleMasterSnapshotContext context) {
        netty.snapshotState(snapshotFuture, context);
    }

    @Override
    public void restoreState(List<ShuffleMasterSnapshot> snapshots) {
        netty.restoreState(snapshots);
    }

    @Override
    public void notifyPartitionRecoveryStarted(JobID jobId) {
        netty.notifyPartitionRecoveryStarted(jobId);
    }

    @Override
    public void close() throws Exception {
        try {
            for (JobState s : jobs.values()) {
                s.app().deregister();
            }
            jobs.clear();
            ControllerLink l = link;
            if (l != null) {
                l.close();
            }
        } finally {
            netty.close();
        }
    }
}
