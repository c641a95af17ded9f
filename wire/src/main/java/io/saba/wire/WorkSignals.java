package io.saba.wire;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one unit of an application's work spent and moved, as its engine measured it: a Spark stage attempt or a
 * Flink task. Raw observations for estimating an application's sensitivity while it runs and for
 * calibrating simulated workloads from real runs; see the {@code WorkSignals} message of saba.v1 for the
 * fields' meaning. Times are in milliseconds and summed over the unit's tasks, except {@code durationMillis}.
 *
 * @param unit              the engine's id of the unit, e.g. "stage 3.0"
 * @param name              what the engine calls it
 * @param endUnixMillis     when it completed
 * @param tasks             tasks that ended in it
 * @param durationMillis    its wall clock, submission to completion
 * @param runMillis         task run time
 * @param networkWaitMillis the part of the run time spent blocked on the network
 * @param timeMillis        time by kind
 * @param bytes             bytes by kind
 * @param counts            counts by kind
 */
public record WorkSignals(String unit, String name, long endUnixMillis, int tasks, long durationMillis,
                          long runMillis, long networkWaitMillis, Map<String, Long> timeMillis,
                          Map<String, Long> bytes, Map<String, Long> counts) {
    /** The {@code unit} of a sum over every unit ({@link #plus}). */
    public static final String TOTAL = "total";
    /**
     * The bytes kind of the most bytes any one host received over the network for this unit (Spark: the remote
     * shuffle reads of the tasks on each executor's host, and the task results on the driver's host; Flink: the
     * task's remote input, one host). The plugins report it even when 0, so its absence means a plugin that does
     * not measure it. A sum ({@link #plus}) adds it up like every kind.
     */
    public static final String BUSIEST_HOST_IN = "network_in_busiest_host";

    public WorkSignals {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(name, "name");
        timeMillis = sorted(timeMillis);
        bytes = sorted(bytes);
        counts = sorted(counts);
    }

    /** Nothing yet: the start of a sum. */
    public static WorkSignals none() {
        return new WorkSignals(TOTAL, "", 0, 0, 0, 0, 0, Map.of(), Map.of(), Map.of());
    }

    /**
     * The sum of this and {@code o}, per field and per kind, named {@link #TOTAL}; it ends when the later of the two
     * ends. Durations add up too (units may overlap in time, so this is work, not elapsed time).
     */
    public WorkSignals plus(WorkSignals o) {
        return new WorkSignals(TOTAL, "", Math.max(endUnixMillis, o.endUnixMillis), tasks + o.tasks,
                durationMillis + o.durationMillis, runMillis + o.runMillis, networkWaitMillis + o.networkWaitMillis,
                sum(timeMillis, o.timeMillis), sum(bytes, o.bytes), sum(counts, o.counts));
    }

    /** A kind's bytes, 0 when not reported. */
    public long bytes(String kind) {
        return bytes.getOrDefault(kind, 0L);
    }

    /** A kind's time, 0 when not reported. */
    public long timeMillis(String kind) {
        return timeMillis.getOrDefault(kind, 0L);
    }

    /** A kind's count, 0 when not reported. */
    public long count(String kind) {
        return counts.getOrDefault(kind, 0L);
    }

    private static Map<String, Long> sum(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> out = new TreeMap<>(a);
        b.forEach((k, v) -> out.merge(k, v, Long::sum));
        return out;
    }

    /** Sorted by kind, so every copy prints and compares alike; unmodifiable. */
    private static Map<String, Long> sorted(Map<String, Long> m) {
        return m == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(m));
    }
}
