package io.saba.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * Labelled points for the MLlib workloads: features drawn N(0, 1) (dense) or {@code nonZeros} of them per point
 * (sparse), label 1 when a fixed hidden hyperplane w·x plus noise is positive. Weight w_j is a function of j
 * alone, so every executor agrees on it without shipping it.
 */
final class Classification {
    static final StructType SCHEMA = new StructType()
            .add("label", DataTypes.DoubleType, false)
            .add("features", SQLDataTypes.VectorType(), false);

    private Classification() {
    }

    static double weight(int j) {
        return new SplittableRandom(Gen.mix(7, j)).nextDouble(-1, 1);
    }

    static Dataset<Row> dense(SparkSession spark, long n, int features, int partitions, long seed) {
        JavaRDD<Row> rows = Gen.records(JavaSparkContext.fromSparkContext(spark.sparkContext()), n, partitions, seed,
                (i, rnd) -> {
                    double[] x = new double[features];
                    double dot = 0;
                    for (int j = 0; j < features; j++) {
                        x[j] = rnd.nextGaussian();
                        dot += weight(j) * x[j];
                    }
                    return row(dot + 0.5 * rnd.nextGaussian(), Vectors.dense(x));
                });
        return cache(spark, rows);
    }

    static Dataset<Row> sparse(SparkSession spark, long n, int features, int nonZeros, int partitions, long seed) {
        JavaRDD<Row> rows = Gen.records(JavaSparkContext.fromSparkContext(spark.sparkContext()), n, partitions, seed,
                (i, rnd) -> {
                    java.util.TreeSet<Integer> chosen = new java.util.TreeSet<>();
                    while (chosen.size() < Math.min(nonZeros, features)) {
                        chosen.add(rnd.nextInt(features));
                    }
                    int[] idx = chosen.stream().mapToInt(Integer::intValue).toArray();
                    double[] val = new double[idx.length];
                    double dot = 0;
                    for (int k = 0; k < idx.length; k++) {
                        val[k] = rnd.nextGaussian();
                        dot += weight(idx[k]) * val[k];
                    }
                    return row(dot + 0.5 * rnd.nextGaussian(), Vectors.sparse(features, idx, val));
                });
        return cache(spark, rows);
    }

    private static Row row(double margin, Vector x) {
        return RowFactory.create(margin > 0 ? 1.0 : 0.0, x);
    }

    private static Dataset<Row> cache(SparkSession spark, JavaRDD<Row> rows) {
        Dataset<Row> df = spark.createDataFrame(rows, SCHEMA).persist(StorageLevel.MEMORY_AND_DISK());
        df.count();
        return df;
    }

    /** Bytes of the input as HiBench would count them: 8 per stored value (and index), plus the label. */
    static long bytes(long n, int storedPerPoint, boolean sparse) {
        return n * (8L + storedPerPoint * (sparse ? 12L : 8L));
    }

    /** Training accuracy, rounded so repeated runs summarise identically. */
    static String accuracy(Dataset<Row> predictions) {
        List<Row> r = new ArrayList<>(predictions.selectExpr(
                "avg(CAST(label = prediction AS DOUBLE))").collectAsList());
        return String.format("accuracy=%.3f", r.get(0).getDouble(0));
    }
}
