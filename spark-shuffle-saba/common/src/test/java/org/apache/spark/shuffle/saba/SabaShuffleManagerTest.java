package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.shuffle.sort.SortShuffleManager;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real executors (local-cluster) against a real controller: the plugin changes no result, and the controller sees
 * the registration, the executors' shuffle connections and the deregistration; Spark SQL keeps its sort-shuffle
 * path.
 */
@Timeout(600)
class SabaShuffleManagerTest {
    private static EmbeddedController controller;

    @BeforeAll
    static void start() {
        controller = Fixtures.controller();
    }

    @AfterAll
    static void stop() {
        controller.close();
    }

    @Test
    void sameResultAndTheControllerSeesTheApplicationAndItsConnections() throws Exception {
        Map<Integer, Long> plain;
        try (JavaSparkContext jsc = new JavaSparkContext(LocalCluster.conf("plain"))) {
            plain = LocalCluster.job(jsc, 60_000, 97);
        }

        String appId;
        Map<Integer, Long> saba;
        try (JavaSparkContext jsc = new JavaSparkContext(
                LocalCluster.withSaba(LocalCluster.conf("saba"), controller.target(), "lr"))) {
            appId = jsc.sc().applicationId();
            // registration is asynchronous (the driver never waits for the controller)
            await("registration").atMost(Duration.ofSeconds(60))
                    .until(() -> Fixtures.app(controller, appId) != null);
            AppView registered = Fixtures.app(controller, appId);
            assertNotNull(registered);
            assertEquals("lr", registered.workload());
            assertEquals("spark", registered.framework());

            saba = LocalCluster.job(jsc, 60_000, 97);

            // two executors fetch from each other: each serving side reports the connection it accepted
            await("executor connections at the controller").atMost(Duration.ofSeconds(60))
                    .until(() -> Fixtures.app(controller, appId).connections() >= 2);
            AppView v = Fixtures.app(controller, appId);
            System.out.println("controller sees " + v.connections() + " connections of " + appId + ": " + v.open());
            assertTrue(v.open().stream().allMatch(k -> k.srcPort() > 0 && k.dstPort() > 0));
        }
        assertEquals(plain, saba, "Saba must not change the job's result");
        assertEquals(97, saba.size());
        await("deregistration").atMost(Duration.ofSeconds(30))
                .until(() -> Fixtures.app(controller, appId) == null);
        assertNull(Fixtures.app(controller, appId));
    }

    /**
     * Spark SQL copies every row before a shuffle unless the shuffle manager is a SortShuffleManager
     * (ShuffleExchangeExec.needToCopyObjectsBeforeShuffle); Saba's is one, on the driver and on every executor, so a
     * DataFrame job pays nothing for it.
     */
    @Test
    void sparkSqlSeesTheSortShuffleItIs() throws Exception {
        try (JavaSparkContext jsc = new JavaSparkContext(
                LocalCluster.withSaba(LocalCluster.conf("saba-sql"), controller.target(), "sql"))) {
            assertTrue(SparkEnv.get().shuffleManager() instanceof SortShuffleManager, "driver");
            List<Boolean> onExecutors = jsc.parallelize(List.of(1, 2, 3, 4), 4)
                    .map(i -> SparkEnv.get().shuffleManager() instanceof SortShuffleManager).collect();
            assertEquals(List.of(true, true, true, true), onExecutors);
            SparkSession spark = SparkSession.builder().sparkContext(jsc.sc()).getOrCreate();
            List<Row> rows = spark.range(0, 20_000, 1, 4).selectExpr("id % 7 AS k").groupBy("k").count()
                    .orderBy("k").collectAsList();
            assertEquals(7, rows.size());
            assertEquals(20_000L, rows.stream().mapToLong(r -> r.getLong(1)).sum());
        }
    }
}
