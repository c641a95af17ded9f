package io.saba.workloads;

import org.apache.spark.ml.classification.GBTClassifier;
import org.apache.spark.ml.classification.LinearSVC;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.classification.RandomForestClassifier;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The four MLlib workloads. Each trains on the cached points and returns the training accuracy. The network
 * share comes from MLlib's aggregations: LR and SVM send a gradient of the feature count per partition per
 * iteration (treeAggregate) and broadcast the coefficients back; RF and GBT aggregate split histograms per tree
 * level (features x bins x nodes).
 */
final class MlWorkloads {
    private MlWorkloads() {
    }

    /** Shared plumbing: the cached dataset and its release. */
    abstract static class Ml implements Workload {
        protected Dataset<Row> data;

        @Override
        public void cleanup() {
            if (data != null) {
                data.unpersist();
                data = null;
            }
        }
    }

    /** Logistic regression on sparse, high-dimensional points (HiBench LR: 10k samples in the paper). */
    static final class Lr extends Ml {
        private int iterations;

        public String key() {
            return "lr";
        }

        public String reportType() {
            return "SabaSparkLogisticRegression";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(2_000, 20_000, 10_000);
            int features = s.pick(500, 200_000, 1_000_000);
            int nnz = s.pick(20, 50, 200);
            iterations = s.pick(3, 10, 20);
            data = Classification.sparse(spark, n, features, nnz, s.partitions(), 11);
            return Classification.bytes(n, nnz, true);
        }

        public String run(SparkSession spark) {
            var model = new LogisticRegression().setMaxIter(iterations).setTol(0).fit(data);
            return Classification.accuracy(model.transform(data));
        }
    }

    /** Linear SVM (HiBench SVM: 150k samples in the paper). */
    static final class Svm extends Ml {
        private int iterations;

        public String key() {
            return "svm";
        }

        public String reportType() {
            return "SabaSparkSVM";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(2_000, 30_000, 150_000);
            int features = s.pick(500, 100_000, 1_000_000);
            int nnz = s.pick(20, 50, 200);
            iterations = s.pick(3, 10, 20);
            data = Classification.sparse(spark, n, features, nnz, s.partitions(), 12);
            return Classification.bytes(n, nnz, true);
        }

        public String run(SparkSession spark) {
            var model = new LinearSVC().setMaxIter(iterations).setTol(0).fit(data);
            return Classification.accuracy(model.transform(data));
        }
    }

    /** Random forest (HiBench RF: 20k samples in the paper). */
    static final class Rf extends Ml {
        private int trees;
        private int depth;

        public String key() {
            return "rf";
        }

        public String reportType() {
            return "SabaSparkRandomForest";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(1_000, 20_000, 20_000);
            int features = s.pick(20, 200, 1_000);
            trees = s.pick(3, 10, 100);
            depth = s.pick(4, 6, 8);
            data = Classification.dense(spark, n, features, s.partitions(), 13);
            return Classification.bytes(n, features, false);
        }

        public String run(SparkSession spark) {
            var model = new RandomForestClassifier().setNumTrees(trees).setMaxDepth(depth).setSeed(1).fit(data);
            return Classification.accuracy(model.transform(data));
        }
    }

    /** Gradient-boosted trees (HiBench GBT: 1k samples in the paper). */
    static final class Gbt extends Ml {
        private int iterations;
        private int depth;

        public String key() {
            return "gbt";
        }

        public String reportType() {
            return "SabaSparkGradientBoostingTree";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(500, 5_000, 1_000);
            int features = s.pick(20, 200, 1_000);
            iterations = s.pick(3, 10, 20);
            depth = s.pick(3, 5, 5);
            data = Classification.dense(spark, n, features, s.partitions(), 14);
            return Classification.bytes(n, features, false);
        }

        public String run(SparkSession spark) {
            var model = new GBTClassifier().setMaxIter(iterations).setMaxDepth(depth).setSeed(1).fit(data);
            return Classification.accuracy(model.transform(data));
        }
    }
}
