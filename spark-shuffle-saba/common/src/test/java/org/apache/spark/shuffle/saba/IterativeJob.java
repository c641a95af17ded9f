package org.apache.spark.shuffle.saba;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.classification.LogisticRegressionModel;
import org.apache.spark.mllib.classification.LogisticRegressionWithLBFGS;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.regression.LabeledPoint;

/**
 * An iterative MLlib job, the kind whose bytes are not shuffle: logistic regression by L-BFGS broadcasts the
 * weights to the executors every iteration and collects each partition's gradient as a task result (MLlib's
 * treeAggregate; with 4 partitions there is no intermediate shuffle level). With {@code features} weights both
 * messages are {@code 8 × features} bytes.
 */
final class IterativeJob {
    private IterativeJob() {
    }

    /** Trains on deterministic data and returns the model's weights rounded to 1e-6, for comparing runs. */
    static List<Double> logisticRegression(JavaSparkContext jsc, int features, int iterations) {
        List<Integer> partitions = List.of(0, 1, 2, 3);
        JavaRDD<LabeledPoint> data = jsc.parallelize(partitions, 4).flatMap(p -> points(p, 200, features)).cache();
        LogisticRegressionWithLBFGS lr = new LogisticRegressionWithLBFGS();
        lr.optimizer().setNumIterations(iterations).setConvergenceTol(0);
        LogisticRegressionModel m = lr.run(data.rdd());
        data.unpersist(false);
        List<Double> w = new ArrayList<>();
        for (double x : m.weights().toArray()) {
            w.add(Math.round(x * 1e6) / 1e6);
        }
        return w;
    }

    private static java.util.Iterator<LabeledPoint> points(int partition, int n, int features) {
        Random r = new Random(1000L + partition);
        List<LabeledPoint> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double[] x = new double[features];
            double dot = 0;
            for (int j = 0; j < features; j++) {
                x[j] = r.nextGaussian();
                dot += x[j] * ((j % 7) - 3);
            }
            out.add(new LabeledPoint(dot + r.nextGaussian() > 0 ? 1 : 0, Vectors.dense(x)));
        }
        return out.iterator();
    }
}
