package org.apache.spark.shuffle.saba;

import io.saba.controller.server.EmbeddedController;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Overhead benchmark, not a test (it asserts nothing and runs only with {@code -Dsaba.bench=true}): the same
 * shuffle-heavy job on real executors with SortShuffleManager and with SabaShuffleManager (against a real
 * controller), the two alternated round by round so that drifting machine load hits both; prints per-round
 * medians and the ratio Saba/Sort of the medians.
 *
 * <pre>
 * mvn -B -ntp -pl spark-shuffle-saba/spark-3.5 -am verify -Dsaba.bench=true -Dtest=OverheadBenchmark \
 *     -Dsurefire.failIfNoSpecifiedTests=false [-Dsaba.bench.rounds=3 -Dsaba.bench.jobs=3 -Dsaba.bench.records=300000]
 * # results: spark-shuffle-saba/spark-3.5/target/overhead-benchmark.txt
 * </pre>
 *
 * <p>{@code -Dsaba.bench.job=sql} times a DataFrame aggregation instead (wide rows through Spark SQL's exchange,
 * the path where a shuffle manager that is not a SortShuffleManager makes Spark copy every row).
 */
@EnabledIfSystemProperty(named = "saba.bench", matches = "true")
class OverheadBenchmark {

    @Test
    void sortVersusSaba() throws Exception {
        int rounds = Integer.getInteger("saba.bench.rounds", 3);
        int jobs = Integer.getInteger("saba.bench.jobs", 3);
        int records = Integer.getInteger("saba.bench.records", 300_000);
        boolean sql = "sql".equals(System.getProperty("saba.bench.job", "rdd"));
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "# %s, %d rounds x %d timed %s jobs, %d records (~%d MB shuffled)",
                LocalCluster.MASTER, rounds, jobs, sql ? "SQL" : "RDD", records, records * 50L >> 20));
        out.add("round  sort_median_ms  saba_median_ms  ratio");
        List<Double> sortAll = new ArrayList<>();
        List<Double> sabaAll = new ArrayList<>();
        try (EmbeddedController controller = Fixtures.controller()) {
            for (int r = 1; r <= rounds; r++) {
                double sort;
                double saba;
                // alternate which manager goes first
                if (r % 2 == 1) {
                    sort = median(run(LocalCluster.conf("bench-sort"), jobs, records, sql));
                    saba = median(run(LocalCluster.withSaba(LocalCluster.conf("bench-saba"), controller.target(),
                            "lr"), jobs, records, sql));
                } else {
                    saba = median(run(LocalCluster.withSaba(LocalCluster.conf("bench-saba"), controller.target(),
                            "lr"), jobs, records, sql));
                    sort = median(run(LocalCluster.conf("bench-sort"), jobs, records, sql));
                }
                sortAll.add(sort);
                sabaAll.add(saba);
                out.add(String.format(Locale.ROOT, "%5d  %14.0f  %14.0f  %5.3f", r, sort, saba, saba / sort));
                System.out.println(out.get(out.size() - 1));
            }
        }
        double sortMedian = median(sortAll);
        double sabaMedian = median(sabaAll);
        out.add(String.format(Locale.ROOT, "median  %13.0f  %14.0f  %5.3f   <- ratio of job times Saba/Sort",
                sortMedian, sabaMedian, sabaMedian / sortMedian));
        // the same question asked round by round (each round's pair ran back to back, so shares its load)
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < sortAll.size(); i++) {
            ratios.add(sabaAll.get(i) / sortAll.get(i));
        }
        out.add(String.format(Locale.ROOT, "median of the per-round ratios %5.3f (lowest %5.3f, highest %5.3f)",
                median(ratios), Collections.min(ratios), Collections.max(ratios)));
        String text = String.join("\n", out) + "\n";
        System.out.print(text);
        Files.writeString(Path.of("target", "overhead-benchmark.txt"), text);
    }

    /** One SparkContext: a warm-up job, then {@code jobs} timed jobs; returns their times in ms. */
    private static List<Double> run(SparkConf conf, int jobs, int records, boolean sql) {
        List<Double> times = new ArrayList<>();
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            Runnable job = sql ? () -> sqlJob(jsc, records) : () -> LocalCluster.job(jsc, records, 997);
            job.run();
            for (int i = 0; i < jobs; i++) {
                long t0 = System.nanoTime();
                job.run();
                times.add((System.nanoTime() - t0) / 1e6);
            }
        }
        return times;
    }

    /** Every row (a key and a 40-character string) through one exchange into 300 partitions, then summed. */
    private static void sqlJob(JavaSparkContext jsc, int records) {
        SparkSession spark = SparkSession.builder().sparkContext(jsc.sc()).getOrCreate();
        spark.range(0, records, 1, 4).selectExpr("id % 997 AS k", "concat('v', id, repeat('-', 40)) AS v")
                .repartition(300, org.apache.spark.sql.functions.col("k"))
                .selectExpr("k", "length(v) AS n").groupBy("k").sum("n").collectAsList();
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
