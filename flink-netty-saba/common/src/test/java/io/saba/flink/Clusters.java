package io.saba.flink;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.shuffle.ShuffleServiceOptions;
import org.awaitility.Awaitility;

/** MiniClusters of two TaskManagers with two slots each: real Netty data connections over loopback. */
final class Clusters {
    /** Each version module's own factory, under the one name users configure. */
    static final String FACTORY = "io.saba.flink.SabaShuffleServiceFactory";
    private static final int TASK_MANAGERS = 2;
    private static final int SLOTS_PER_TASK_MANAGER = 2;

    private Clusters() {
    }

    /** Flink's own Netty shuffle. */
    static MiniCluster netty() throws Exception {
        return start(new Configuration());
    }

    /** The Saba factory with the given extra settings (e.g. the controller's address). */
    static MiniCluster saba(Map<String, String> settings) throws Exception {
        Configuration c = new Configuration();
        c.set(ShuffleServiceOptions.SHUFFLE_SERVICE_FACTORY_CLASS, Clusters.FACTORY);
        settings.forEach(c::setString);
        return start(c);
    }

    static MiniCluster start(Configuration extra) throws Exception {
        Configuration c = new Configuration();
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("16m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.FRAMEWORK_OFF_HEAP_MEMORY, MemorySize.parse("96m"));
        c.set(TaskManagerOptions.NETWORK_BATCH_SHUFFLE_READ_MEMORY, MemorySize.parse("32m"));
        // spread each job's subtasks over both TaskManagers, so its shuffle crosses the network
        c.set(TaskManagerOptions.TASK_MANAGER_LOAD_BALANCE_MODE, TaskManagerOptions.TaskManagerLoadBalanceMode.SLOTS);
        c.addAll(extra);
        MiniCluster m = new MiniCluster(new MiniClusterConfiguration.Builder().withRandomPorts()
                .setConfiguration(c).setNumTaskManagers(TASK_MANAGERS)
                .setNumSlotsPerTaskManager(SLOTS_PER_TASK_MANAGER).build());
        m.start();
        // start() returns before the TaskManagers register with the ResourceManager, and a job's slots come from
        // those registered when its requirements are matched: with one registered, a job of parallelism 2 gets both
        // slots there, its shuffle stays inside one JVM and nothing crosses the loopback
        try {
            Awaitility.await("every TaskManager registered its slots").atMost(Controllers.PATIENCE)
                    .until(() -> m.getResourceOverview().join()
                    .getNumberRegisteredSlots() == TASK_MANAGERS * SLOTS_PER_TASK_MANAGER);
        } catch (Throwable t) {
            m.close();
            throw t;
        }
        return m;
    }

    /** How many TaskManagers ran the (finished) job's subtasks: 2 when its shuffle can have crossed the network. */
    static int taskManagersOf(MiniCluster m, JobID id) throws Exception {
        Set<ResourceID> ran = new HashSet<>();
        m.getArchivedExecutionGraph(id).get(1, TimeUnit.MINUTES).getAllExecutionVertices().forEach(v ->
                ran.add(v.getCurrentExecutionAttempt().getAssignedResourceLocation().getResourceID()));
        return ran.size();
    }

    static JobID submit(MiniCluster m, JobGraph g) throws Exception {
        return m.submitJob(g).get(2, TimeUnit.MINUTES).getJobID();
    }

    /** Waits for the job and returns its accumulators; a failed job fails the caller with Flink's cause. */
    static Map<String, Object> await(MiniCluster m, JobID id) throws Exception {
        JobResult r = m.requestJobResult(id).get(5, TimeUnit.MINUTES);
        if (!r.isSuccess()) {
            throw new AssertionError("job " + id + " failed",
                    r.getSerializedThrowable().get().deserializeError(Clusters.class.getClassLoader()));
        }
        return r.toJobExecutionResult(Clusters.class.getClassLoader()).getAllAccumulatorResults();
    }

    static Map<String, Object> run(MiniCluster m, JobGraph g) throws Exception {
        return await(m, submit(m, g));
    }
}
