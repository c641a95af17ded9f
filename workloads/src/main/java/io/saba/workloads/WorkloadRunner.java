package io.saba.workloads;

import java.time.LocalDateTime;
import org.apache.spark.sql.SparkSession;

/**
 * Runs one workload in a session: prepare (untimed), then the timed run. The time is the job's own, without
 * JVM, executor start-up or data generation, which is what the profiler compares across bandwidth levels.
 */
public final class WorkloadRunner {
    private WorkloadRunner() {
    }

    /**
     * @param name        workload key
     * @param inputBytes  the generated input's size as HiBench counts it
     * @param seconds     the timed part
     * @param summary     a deterministic summary of the output
     * @param startedAt   when the timed part began
     * @param startedEpochMillis the same instant on the wall clock (to line up samples taken elsewhere)
     */
    public record Result(String name, String reportType, long inputBytes, double seconds, String summary,
                        LocalDateTime startedAt, long startedEpochMillis) {
    }

    public static Result run(SparkSession spark, String name, Size size) {
        return run(spark, name, size, () -> { });
    }

    /**
     * As {@link #run(SparkSession, String, Size)}, calling {@code prepared} between the prepare step and the
     * timed part (a start gate: co-running jobs that start their clocks together).
     */
    public static Result run(SparkSession spark, String name, Size size, Runnable prepared) {
        Workload w = Workloads.create(name);
        long bytes = w.prepare(spark, size);
        try {
            prepared.run();
            LocalDateTime at = LocalDateTime.now();
            long epoch = System.currentTimeMillis();
            long t0 = System.nanoTime();
            String summary = w.run(spark);
            double seconds = (System.nanoTime() - t0) / 1e9;
            return new Result(w.key(), w.reportType(), bytes, seconds, summary, at, epoch);
        } finally {
            w.cleanup();
        }
    }
}
