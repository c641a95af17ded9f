package org.apache.spark.shuffle.saba;

import io.saba.wire.WorkSignals;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.spark.executor.ShuffleReadMetrics;
import org.apache.spark.executor.ShuffleWriteMetrics;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;

/**
 * The driver's per-stage work signals (for the controller's online sensitivity estimate): from every task end, what its task spent (run, CPU, GC, blocked
 * on shuffle fetches) and moved (shuffle read remote and local, shuffle write, task results); at a stage attempt's
 * completion, one {@link WorkSignals} handed to {@code sink}.
 *
 * <p>Costs the job nothing it waits for: Spark calls listeners on its listener-bus thread, after the fact, and this
 * one only adds a few longs per task into the tally of its stage attempt; the sink must not block (the Saba client
 * queues, the signals file has its own thread). Memory is bounded: a tally per stage attempt in flight, forgotten at
 * its completion, and at most {@link #MAX_OPEN} of them (tasks of stages beyond that are not tallied). A failure in
 * here never reaches Spark (a listener that throws is logged by Spark and kept, but it is caught here first).
 *
 * <p>What Spark does not measure is not reported: broadcast fetches have no task metric (their time is part of the
 * run time, or of deserialisation for the task's own closure), so there is no broadcast kind.
 *
 * <p>Per host, what crossed into it ({@link WorkSignals#BUSIEST_HOST_IN}, the busiest): the remote shuffle bytes
 * the tasks on each executor's host read, and on the driver's host the task results (every result travels from its
 * executor to the driver, directly in the status update or as a block the driver fetches). The controller divides
 * it by the link rate for the stage's network time. Spark's "remote" means another executor's block manager, which
 * may sit on the same host (two executors on one worker): such bytes count though no link carried them.
 */
final class StageSignalsListener extends SparkListener {
    static final int MAX_OPEN = 10_000;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StageSignalsListener.class);

    /** Stage attempt ("id.attempt") → its tally; only the listener-bus thread touches it. */
    private final Map<String, Tally> open = new HashMap<>();
    private final Consumer<WorkSignals> sink;
    /** {@code spark.driver.host}, where task results go. */
    private final String driverHost;
    private boolean warned;

    StageSignalsListener(Consumer<WorkSignals> sink, String driverHost) {
        this.sink = sink;
        this.driverHost = driverHost;
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        try {
            String key = key(e.stageId(), e.stageAttemptId());
            Tally t = open.get(key);
            if (t == null) {
                if (open.size() >= MAX_OPEN) {
                    return;
                }
                t = new Tally(driverHost);
                open.put(key, t);
            }
            t.add(e.taskInfo(), e.taskMetrics());
        } catch (RuntimeException ex) {
            warnOnce(ex);
        }
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        try {
            StageInfo info = e.stageInfo();
            Tally t = open.remove(key(info.stageId(), info.attemptNumber()));
            sink.accept((t == null ? new Tally(driverHost) : t).signals(info));
        } catch (RuntimeException ex) {
            warnOnce(ex);
        }
    }

    /** Stage attempts with tasks tallied and no completion yet. */
    int inFlight() {
        return open.size();
    }

    private void warnOnce(RuntimeException ex) {
        if (!warned) {
            warned = true;
            LOG.warn("Saba: work signals of a stage could not be read; the job goes on", ex);
        }
    }

    private static String key(int stage, int attempt) {
        return stage + "." + attempt;
    }

    /** One stage attempt's sums over its ended tasks. */
    static final class Tally {
        private final String driverHost;
        private int tasks;
        private long run;
        /** Host → bytes that crossed into it (remote shuffle reads of its tasks; results on the driver's). */
        private final Map<String, Long> intoHost = new HashMap<>();
        private final Map<String, Long> time = new TreeMap<>();
        private final Map<String, Long> bytes = new TreeMap<>();
        private final Map<String, Long> counts = new TreeMap<>();

        Tally(String driverHost) {
            this.driverHost = driverHost;
        }

        void add(TaskInfo info, TaskMetrics m) {
            tasks++;
            if (info != null) {
                if (info.gettingResultTime() > 0 && info.finishTime() >= info.gettingResultTime()) {
                    // a result too large for the status update: the driver fetched it as a block (over the network
                    // from the executor's block manager), between these two instants
                    add(time, "task_result_fetch", info.finishTime() - info.gettingResultTime());
                    add(counts, "indirect_results", 1);
                }
                if (info.failed() || info.killed()) {
                    add(counts, "failed_tasks", 1);
                }
            }
            if (m == null) {
                return; // Spark has none for some failed tasks
            }
            run += m.executorRunTime();
            add(time, "cpu", TimeUnit.NANOSECONDS.toMillis(m.executorCpuTime()));
            add(time, "gc", m.jvmGCTime());
            add(time, "deserialize", m.executorDeserializeTime());
            add(time, "result_serialize", m.resultSerializationTime());
            add(bytes, "task_result", m.resultSize());
            add(bytes, "input", m.inputMetrics().bytesRead());
            add(bytes, "output", m.outputMetrics().bytesWritten());
            ShuffleReadMetrics r = m.shuffleReadMetrics();
            add(time, "shuffle_fetch_wait", r.fetchWaitTime());
            add(time, "shuffle_remote_requests", r.remoteReqsDuration());
            add(bytes, "shuffle_remote_read", r.remoteBytesRead());
            add(bytes, "shuffle_remote_read_to_disk", r.remoteBytesReadToDisk());
            add(bytes, "shuffle_local_read", r.localBytesRead());
            add(counts, "shuffle_remote_blocks", r.remoteBlocksFetched());
            add(counts, "shuffle_local_blocks", r.localBlocksFetched());
            add(counts, "shuffle_records_read", r.recordsRead());
            ShuffleWriteMetrics w = m.shuffleWriteMetrics();
            add(time, "shuffle_write", TimeUnit.NANOSECONDS.toMillis(w.writeTime()));
            add(bytes, "shuffle_write", w.bytesWritten());
            add(counts, "shuffle_records_written", w.recordsWritten());
            add(intoHost, info == null ? "" : info.host(), r.remoteBytesRead());
            add(intoHost, driverHost, m.resultSize());
        }

        WorkSignals signals(StageInfo info) {
            long now = System.currentTimeMillis();
            long end = info.completionTime().isDefined() ? (Long) info.completionTime().get() : now;
            long start = info.submissionTime().isDefined() ? (Long) info.submissionTime().get() : end;
            // reported even when 0: its absence tells the controller the plugin does not measure it
            bytes.put(WorkSignals.BUSIEST_HOST_IN, intoHost.values().stream().mapToLong(Long::longValue).max()
                    .orElse(0));
            return new WorkSignals("stage " + key(info.stageId(), info.attemptNumber()), shortened(info.name()), end,
                    tasks, Math.max(0, end - start), run, time.getOrDefault("shuffle_fetch_wait", 0L), time, bytes,
                    counts);
        }

        /** Kinds with nothing to say are left out, so a stage's record lists what it did. */
        private static void add(Map<String, Long> m, String kind, long v) {
            if (v > 0) {
                m.merge(kind, v, Long::sum);
            }
        }

        private static String shortened(String name) {
            String n = name == null ? "" : name.replaceAll("\\p{Cntrl}", " ");
            return n.length() <= io.saba.wire.SignalsProto.MAX_NAME ? n
                    : n.substring(0, io.saba.wire.SignalsProto.MAX_NAME);
        }
    }
}
