package io.saba.flink;

import io.saba.client.AppSpec;
import io.saba.wire.WorkSignals;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.executiongraph.IOMetrics;
import org.apache.flink.runtime.io.network.partition.PartitionProducerStateProvider;
import org.apache.flink.runtime.metrics.MetricNames;
import org.apache.flink.runtime.metrics.groups.TaskIOMetricGroup;
import org.apache.flink.runtime.shuffle.ShuffleIOOwnerContext;
import org.apache.flink.runtime.taskmanager.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TaskManager's task work signals (for the controller's online sensitivity estimate), read from Flink's own task metrics when each task ends and handed
 * to {@link TaskManagerReports}.
 *
 * <p>How it sees tasks, in Flink 1.20: a {@code Task}'s constructor asks the shuffle environment for its IO owner
 * context and then for its input gates, passing itself as the gates' {@code PartitionProducerStateProvider} (with no
 * gates too). From the task, {@link #watch} takes the termination future, which Flink completes on the task's
 * thread once the task has released its resources, reported its final state and closed its metric group. Reading
 * the metrics there costs the task's thread a few counter reads as it exits, and costs the job nothing: no polling,
 * no metric reporter, no thread while tasks run.
 *
 * <p>What it reads: the task's {@code TaskIOMetricGroup.createSnapshot()}, the same {@code IOMetrics} the
 * TaskManager sends the JobManager with the task's final state (busy, idle and back-pressured time; bytes and
 * records in and out), its {@code numBuffersOut} counter, and the remote and local input counters Flink creates in
 * the input group ({@link InputCounters}). Flink's busy time is the time since the task started running minus idle
 * and back-pressured time, so read a few milliseconds after Flink's own snapshot it is longer by those
 * milliseconds; the other numbers are final.
 *
 * <p>Never fails a task: a task that is not a {@code Task} (another Flink version), or a metric that cannot be
 * read, logs one warning and the task goes on without signals.
 */
final class TaskSignals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TaskSignals.class);
    private static final String REMOTE_BYTES = MetricNames.IO_NUM_BYTES_IN + "Remote";
    private static final String LOCAL_BYTES = MetricNames.IO_NUM_BYTES_IN + "Local";
    private static final String REMOTE_BUFFERS = MetricNames.IO_NUM_BUFFERS_IN + "Remote";
    private static final String LOCAL_BUFFERS = MetricNames.IO_NUM_BUFFERS_IN + "Local";

    private final SabaSettings settings;
    private final TaskManagerReports out;
    private final AtomicBoolean warned = new AtomicBoolean();

    TaskSignals(SabaSettings settings, TaskManagerReports out) {
        this.settings = settings;
        this.out = out;
    }

    /** Flink's context for a task, whose input group keeps the counters Flink creates in it. */
    ShuffleIOOwnerContext withInputCounters(ShuffleIOOwnerContext c) {
        return new ShuffleIOOwnerContext(c.getOwnerName(), c.getExecutionAttemptID(), c.getParentGroup(),
                c.getOutputGroup(), new InputCounters(c.getInputGroup()));
    }

    /**
     * A task's input gates were just created (its constructor runs): reports its signals when it ends.
     *
     * @param inputGates how many it has (0 for a source)
     */
    void watch(ShuffleIOOwnerContext owner, PartitionProducerStateProvider provider, int inputGates) {
        try {
            if (!(provider instanceof Task task)) {
                warnOnce("Flink handed the shuffle environment no Task but a "
                        + (provider == null ? "null" : provider.getClass().getName()));
                return;
            }
            long deployed = System.currentTimeMillis();
            InputCounters in = owner.getInputGroup() instanceof InputCounters c ? c : new InputCounters(null);
            out.taskDeployed(task.getJobID().toHexString());
            task.getTerminationFuture().thenAccept(state -> ended(task, in, deployed, inputGates > 0, state));
        } catch (RuntimeException e) {
            warnOnce(e.toString());
        }
    }

    private void ended(Task task, InputCounters in, long deployed, boolean readsShuffle, ExecutionState state) {
        String jobId = task.getJobID().toHexString();
        WorkSignals signals = null;
        String workload = "";
        try {
            TaskIOMetricGroup io = task.getMetricGroup().getIOMetricGroup();
            IOMetrics m = io.createSnapshot();
            long end = System.currentTimeMillis(); // after the busy time's "now": the run fits in the duration
            ExecutionAttemptID id = task.getExecutionId();
            signals = new TaskWork("task " + id.getExecutionVertexId() + "_" + id.getAttemptNumber(),
                    task.getTaskInfo().getTaskNameWithSubtasks(), deployed, end, m.getAccumulateBusyTime(),
                    m.getAccumulateIdleTime(), m.getAccumulateBackPressuredTime(), readsShuffle, m.getNumBytesIn(),
                    m.getNumBytesOut(), in.count(REMOTE_BYTES), in.count(LOCAL_BYTES), in.count(REMOTE_BUFFERS),
                    in.count(LOCAL_BUFFERS), io.getNumBuffersOutCounter().getCount(), m.getNumRecordsIn(),
                    m.getNumRecordsOut(), state != ExecutionState.FINISHED).signals();
            workload = settings.workloadOf(task.getJobConfiguration(), task.getMetricGroup().parent().jobName());
        } catch (RuntimeException e) {
            warnOnce(e.toString());
        } finally {
            out.taskEnded(new AppSpec(jobId, workload, "flink", System.getProperty("user.name", ""), 0), signals);
        }
    }

    private void warnOnce(String why) {
        if (warned.compareAndSet(false, true)) {
            LOG.warn("Saba: cannot read tasks' work signals ({}); tasks run on without them", why);
        }
    }

    @Override
    public void close() {
        out.close();
    }
}
