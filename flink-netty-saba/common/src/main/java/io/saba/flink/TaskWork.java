package io.saba.flink;

import io.saba.wire.SignalsProto;
import io.saba.wire.WorkSignals;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one Flink task attempt spent and moved, as its TaskManager's metrics have it when the task ends, and the work
 * signals that say so in the terms Spark's stages use (the module's README maps every field). Pure: the numbers come
 * from {@link TaskSignals}.
 *
 * <p>Flink splits a running task's time three ways (its {@code TaskIOMetricGroup}): idle (no input available),
 * back-pressured (no output buffer available) and busy, which Flink derives as the time since the task started
 * running minus the other two. The run time is their sum. The network wait is the back-pressured time plus, for a
 * task that reads a shuffle, the idle time: such a task is idle while its input gates have no buffer, which is
 * Flink's counterpart of Spark's shuffle fetch wait. A task without input gates (a source) is idle waiting for its
 * source, not for the network.
 *
 * @param unit            the task attempt, {@code "task <job vertex id>_<subtask index>_<attempt>"} (Flink's own
 *                        execution-attempt notation)
 * @param name            its name with subtask and attempt, e.g. {@code "Keyed Reduce (2/4)#0"}
 * @param createdMillis   when the TaskManager created it (deployment)
 * @param endMillis       when its thread ended
 * @param busyMillis      Flink's accumulated busy time; NaN where Flink does not measure it (tasks that are not
 *                        stream tasks, legacy source functions) or the task never started running
 * @param readsShuffle    whether it has input gates
 * @param bytesIn         Flink's {@code numBytesIn}: what it consumed from its input gates (after decompression)
 * @param bytesOut        Flink's {@code numBytesOut}: what it wrote into its result partitions (before compression)
 * @param remoteBytesIn   {@code numBytesInRemote}: buffers received from other TaskManagers, as sent
 * @param localBytesIn    {@code numBytesInLocal}: buffers read from partitions of its own TaskManager
 * @param failed          it ended other than FINISHED (failed or cancelled)
 */
record TaskWork(String unit, String name, long createdMillis, long endMillis, double busyMillis, long idleMillis,
                long backPressuredMillis, boolean readsShuffle, long bytesIn, long bytesOut, long remoteBytesIn,
                long localBytesIn, long remoteBuffersIn, long localBuffersIn, long buffersOut, long recordsIn,
                long recordsOut, boolean failed) {

    WorkSignals signals() {
        long duration = Math.max(0, endMillis - createdMillis);
        long idle = Math.max(0, idleMillis);
        long backPressured = Math.max(0, backPressuredMillis);
        boolean busyKnown = !Double.isNaN(busyMillis) && busyMillis >= 0;
        long busy = busyKnown ? Math.round(busyMillis) : 0;
        // without Flink's busy time, the task's wall clock bounds its run time
        long run = busyKnown ? busy + idle + backPressured : Math.max(duration, idle + backPressured);
        Map<String, Long> time = new TreeMap<>();
        put(time, "busy", busy);
        put(time, "idle", idle);
        put(time, "back_pressured", backPressured);
        Map<String, Long> bytes = new TreeMap<>();
        put(bytes, "shuffle_read", bytesIn);
        put(bytes, "shuffle_write", bytesOut);
        put(bytes, "shuffle_remote_read", remoteBytesIn);
        put(bytes, "shuffle_local_read", localBytesIn);
        // a task runs on one host, so its remote input is what crossed into that host for it; reported even when 0
        // (its absence tells the controller a plugin that does not measure it)
        bytes.put(WorkSignals.BUSIEST_HOST_IN, Math.max(0, remoteBytesIn));
        Map<String, Long> counts = new TreeMap<>();
        put(counts, "shuffle_remote_buffers", remoteBuffersIn);
        put(counts, "shuffle_local_buffers", localBuffersIn);
        put(counts, "shuffle_buffers_written", buffersOut);
        put(counts, "records_in", recordsIn);
        put(counts, "records_out", recordsOut);
        put(counts, "failed_tasks", failed ? 1 : 0);
        return new WorkSignals(unit, fit(name), endMillis, 1, duration, run,
                (readsShuffle ? idle : 0) + backPressured, time, bytes, counts);
    }

    /** Kinds with nothing to say are left out, as Spark's are, so a task's record lists what it did. */
    private static void put(Map<String, Long> m, String kind, long v) {
        if (v > 0) {
            m.put(kind, v);
        }
    }

    /** A name the contract accepts: no control characters, at most {@link SignalsProto#MAX_NAME} characters. */
    private static String fit(String name) {
        String n = name == null ? "" : name.replaceAll("\\p{Cntrl}", " ");
        return n.length() <= SignalsProto.MAX_NAME ? n : n.substring(0, SignalsProto.MAX_NAME);
    }
}
