package io.saba.flink;

import io.saba.client.AppSpec;
import io.saba.client.FallbackPolicy;
import io.saba.client.SabaApplication;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * not seen. Nothing here ever fails a job because of the controller, unless {@code saba.fallback} is NEVER.
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
     * be stamped (once its first level arrived or the wait ran out), (NEVER only) why they are refused, and whether
     * a partition stamped before its level arrived was already reported.
     */
    private record JobState(SabaApplication app, Set<InetSocketAddress> endpoints,
                            CompletableFuture<?> firstLevel, String refusal, AtomicBoolean stampedEarly) {
        JobState(SabaApplication app, CompletableFuture<?> firstLevel, String refusal) {
            this(app, ConcurrentHashMap.newKeySet(), firstLevel, refusal, new AtomicBoolean());
        }

        JobState accepted() {
            return new JobState(app, endpoints, firstLevel, null, stampedEarly);
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

    /** Starts Flink's master and opens (and warms) the way to the controller before the first job arrives. */
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
        Optional<JobGraphs.Job> job = JobGraphs.of(context);
        String workload = settings.workloadOf(job.map(JobGraphs.Job::configuration).orElse(null),
                job.map(JobGraphs.Job::name).orElse(""));
        long start = System.nanoTime();
        SabaApplication app = link().client().register(new AppSpec(id.toHexString(), workload, "flink",
                System.getProperty("user.name", ""), 0));
        if (settings.fallback() == FallbackPolicy.NEVER) {
            jobs.put(id, new JobState(app, CompletableFuture.completedFuture(null), awaitFirstLevel(id, app)));
            return;
        }
        // never block the JobMaster's thread: the answer usually arrives while slots are being allocated, and
        // partition registrations that come earlier wait for it (bounded), so the first partitions carry the level
        CompletableFuture<?> firstLevel = settings.registerWait().isZero() || immediate
                ? CompletableFuture.completedFuture(null)
                : app.assigned().copy().completeOnTimeout(0, settings.registerWait().toNanos(), TimeUnit.NANOSECONDS);
        app.assigned().thenRun(() -> logAnswer(id, app, System.nanoTime() - start));
        jobs.put(id, new JobState(app, firstLevel, null));
    }

    private void logAnswer(JobID id, SabaApplication app, long nanos) {
        if (app.registered()) {
            LOG.info("Saba: job {} registered in {} ms: workload '{}', level {}", id,
                    TimeUnit.NANOSECONDS.toMillis(nanos), app.spec().workload(), app.level());
        } else if (app.refusal() != null) {
            LOG.warn("Saba: job {} is not registered ({}); it runs at level 0 (DSCP 0)", id, whyNoLevel(app));
        } else {
            LOG.info("Saba: job {} is not registered yet ({}); it runs at level 0 (DSCP 0) until then", id,
                    whyNoLevel(app));
        }
    }

    /** Why a job has no level from the controller, for logs and errors. */
    private String whyNoLevel(SabaApplication app) {
        if (app.refusal() != null) {
            return "the controller at " + link().target() + " refused it: " + app.refusal();
        }
        return link().client().controllerReachable()
                ? "the controller at " + link().target() + " has not answered yet"
                : "the controller at " + link().target() + " is unreachable; the job is registered when it returns";
    }

    /**
     * NEVER only: waits up to the controller timeout for the registration's answer (the operator asked for this
     * wait). A controller already known to be down answers at once.
     *
     * @return null, or why the job's partitions are refused. The job fails through its first partition
     *         registration rather than here: an exception from registerJob would stop the JobMaster itself, which
     *         Flink treats as a fatal error of the cluster.
     */
    private String awaitFirstLevel(JobID id, SabaApplication app) {
        try {
            app.assigned().get(settings.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // not answered in time (assigned() never fails; ExecutionException only for completeness)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!app.registered()) {
            String why = "Saba did not register job " + id + " within " + settings.timeout() + " ("
                    + whyNoLevel(app) + ") and " + SabaOptions.FALLBACK.key() + " is NEVER";
            LOG.error(why);
            return why;
        }
        LOG.info("Saba: job {} registered: workload '{}', level {}", id, app.spec().workload(), app.level());
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
                if (s.app().registered()) {
                    LOG.info("Saba: job {} deregistered", jobId);
                } else {
                    LOG.info("Saba: job {} ended without having been registered ({})", jobId, whyNoLevel(s.app()));
                }
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
            if (!s.app().registered()) {
                return CompletableFuture.failedFuture(new IllegalStateException(s.refusal()));
            }
            s = s.accepted(); // the controller came back before Flink restarted the job
            jobs.put(jobId, s);
        }
        if (!settings.tagConnections()) {
            return f;
        }
        JobState job = s;
        return f.thenCombine(s.firstLevel(), (d, ignored) -> stamped(jobId, job, d, endpoint));
    }

    /**
     * Flink's descriptor with its connection index moved to the job's level (see {@link LevelConnections}). A
     * partition stamped before the job's level arrived goes out at level 0 for its whole life: said once per job.
     */
    private NettyShuffleDescriptor stamped(JobID jobId, JobState job, NettyShuffleDescriptor d,
                                           InetSocketAddress endpoint) {
        SabaApplication app = job.app();
        int assigned = app.level();
        if (!app.registered() && job.stampedEarly().compareAndSet(false, true)) {
            String waited = immediate ? "the adaptive scheduler cannot wait for it"
                    : settings.registerWait().isZero() ? SabaOptions.REGISTER_WAIT.key() + " is 0"
                    : "after waiting " + settings.registerWait() + " (" + SabaOptions.REGISTER_WAIT.key() + ")";
            LOG.warn("Saba: job {}'s partitions are stamped before its level arrived, {}: {}; they carry level 0 "
                    + "(DSCP 0)", jobId, waited, whyNoLevel(app));
        }
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
