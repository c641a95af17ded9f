package io.saba.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a benchmark process's CPU went, by kind of thread: a sampling profiler misses time in system calls and
 * counts only what it sampled, while the threads' own CPU clocks add up to the process's. Java threads are read
 * from their own clocks; the JVM's threads (garbage collection, the JIT compilers) from Linux's per-thread
 * accounting ({@code /proc/self/task}, in clock ticks of 10 ms), and what is left of the process's CPU is the JVM's
 * other work.
 *
 * <p>Threads that end before the second reading take their CPU with them: whoever runs short-lived threads adds
 * their CPU with {@link #addEnded}.
 */
final class CpuByThread {
    /** Kinds, in print order; a thread's kind is the first whose name prefix it has. */
    private static final String[][] KINDS = {
            {"recompute", "saba-recompute"},
            {"server calls", "saba-grpc-"},
            {"event loops", "grpc-default-worker-", "grpc-nio-worker-", "grpc-default-boss-"},
            {"bench client", "main", "bench-client-"},
            {"journal fsync", "saba-journal-fsync"},
            {"share tracking", "saba-shares"},
    };
    static final String OTHER = "other threads";
    static final String GC = "GC";
    static final String JIT = "JIT";
    static final String JVM = "other JVM";
    /** Linux's clock tick (USER_HZ), what /proc counts thread CPU in. */
    private static final long TICK_NANOS = 10_000_000L;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final AtomicLong endedBench = new AtomicLong();
    private final AtomicLong endedBenchBytes = new AtomicLong();

    /** CPU and allocation of a bench thread that is about to end (call from the thread itself). */
    void addEnded() {
        endedBench.addAndGet(threads.getCurrentThreadCpuTime());
        if (threads instanceof com.sun.management.ThreadMXBean t) {
            endedBenchBytes.addAndGet(t.getThreadAllocatedBytes(Thread.currentThread().getId()));
        }
    }

    /**
     * Bytes allocated so far by the Java threads of each kind: what the garbage collector's work follows, and unlike
     * CPU time not stretched by a busy machine.
     */
    Map<String, Long> allocated() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String[] k : KINDS) {
            out.put(k[0], 0L);
        }
        out.put(OTHER, 0L);
        out.merge("bench client", endedBenchBytes.get(), Long::sum);
        if (threads instanceof com.sun.management.ThreadMXBean t) {
            for (long id : threads.getAllThreadIds()) {
                long bytes = t.getThreadAllocatedBytes(id);
                var info = threads.getThreadInfo(id);
                if (bytes > 0 && info != null) {
                    out.merge(kindOf(info.getThreadName()), bytes, Long::sum);
                }
            }
        }
        return out;
    }

    /** CPU nanoseconds so far by kind, with {@link #OTHER} and {@link #JVM}. */
    Map<String, Long> reading() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String[] k : KINDS) {
            out.put(k[0], 0L);
        }
        out.put(OTHER, 0L);
        out.merge("bench client", endedBench.get(), Long::sum);
        long javaThreads = endedBench.get();
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            var info = threads.getThreadInfo(id);
            if (cpu <= 0 || info == null) {
                continue;
            }
            out.merge(kindOf(info.getThreadName()), cpu, Long::sum);
            javaThreads += cpu;
        }
        long[] gcAndJit = jvmThreads();
        out.put(GC, gcAndJit[0]);
        out.put(JIT, gcAndJit[1]);
        out.put(JVM, Math.max(0, ProcessFigures.processCpuNanos() - javaThreads - gcAndJit[0] - gcAndJit[1]));
        return out;
    }

    /**
     * CPU nanoseconds of the JVM's garbage-collector and compiler threads, by their Linux names (G1's and Parallel's
     * "GC Thread#N", "G1 Conc#N", "G1 Refine#N", ...; ZGC's "ZWorker#N", "ZDriver"; "C1/C2 CompilerThreadN");
     * zeros where /proc is not there.
     */
    private static long[] jvmThreads() {
        long gc = 0;
        long jit = 0;
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return new long[] {0, 0};
        }
        for (java.io.File t : tasks) {
            try {
                String stat = java.nio.file.Files.readString(t.toPath().resolve("stat"));
                int close = stat.lastIndexOf(')');
                String name = stat.substring(stat.indexOf('(') + 1, close);
                boolean isGc = name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("ZWorker")
                        || name.startsWith("ZDriver") || name.startsWith("ZDirector") || name.startsWith("Shenandoah");
                boolean isJit = name.contains("CompilerThre");
                if (!isGc && !isJit) {
                    continue;
                }
                // after "pid (comm) ": state is field 3, utime and stime fields 14 and 15
                String[] f = stat.substring(close + 2).split(" ");
                long nanos = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS;
                if (isGc) {
                    gc += nanos;
                } else {
                    jit += nanos;
                }
            } catch (java.io.IOException | RuntimeException gone) {
                // the thread ended meanwhile
            }
        }
        return new long[] {gc, jit};
    }

    private static String kindOf(String name) {
        for (String[] k : KINDS) {
            for (int i = 1; i < k.length; i++) {
                if (name.startsWith(k[i])) {
                    return k[0];
                }
            }
        }
        return OTHER;
    }

    /** {@code after - before}, kind by kind. */
    static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0L)));
        return out;
    }

    /** Two readings' differences added, kind by kind. */
    static Map<String, Long> plus(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> out = new LinkedHashMap<>(a);
        b.forEach((k, v) -> out.merge(k, v, Long::sum));
        return out;
    }
}
