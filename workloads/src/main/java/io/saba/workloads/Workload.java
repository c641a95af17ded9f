package io.saba.workloads;

import org.apache.spark.sql.SparkSession;

/**
 * One HiBench-style workload. {@link #prepare} generates and caches the input (HiBench's "prepare" step, not
 * timed); {@link #run} is the timed part and returns a summary of the result that a test can compare across runs.
 */
public interface Workload {
    /** The sensitivity-table key: lr, rf, gbt, svm, pagerank, nweight, sql, wordcount, sort, nutchindexing. */
    String key();

    /** The report's Type column, HiBench style (e.g. ScalaSparkLogisticRegression → SabaSparkLogisticRegression). */
    String reportType();

    /** Generates the input deterministically, caches and materialises it; returns its size in bytes. */
    long prepare(SparkSession spark, Size size);

    /** The timed job; returns a deterministic summary of its output. */
    String run(SparkSession spark);

    /** Drops cached data so several workloads can share one session. */
    void cleanup();
}
