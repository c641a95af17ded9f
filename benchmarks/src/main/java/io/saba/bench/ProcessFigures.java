package io.saba.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the benchmarks read of their own process and machine beside their figures: CPU time (on a shared machine
 * wall-clock rates mostly measure the neighbours; CPU per event does not), garbage collections, the collectors in
 * use, the load average.
 */
final class ProcessFigures {
    private ProcessFigures() {
    }

    /** The garbage collectors in use (their pauses are in the latency tails; printed with the figures). */
    static String collectors() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(g.getName());
        }
        return String.join(", ", names);
    }

    /** The machine's 1-minute load average: figures from a busy machine say so. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0] + " on "
                    + Runtime.getRuntime().availableProcessors() + " cores";
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** The process's CPU time so far. */
    static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean o ? o.getProcessCpuTime() : 0;
    }

    /** CPU time of the controller's recompute thread so far. */
    static long recomputeCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("saba-recompute")) {
                return threads.getThreadCpuTime(t.getId());
            }
        }
        return 0;
    }

    /** Garbage collections so far and the milliseconds they took (G1: the pauses). */
    static long[] gc() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, g.getCollectionCount());
            millis += Math.max(0, g.getCollectionTime());
        }
        return new long[] {count, millis};
    }
}
