package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.SignalsFile;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.signals.AppSignals;
import io.saba.wire.WorkSignals;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work signals of a real shuffle job (two executor JVMs fetching each other's blocks over loopback) reach a real
 * controller over gRPC, show on its /status.json, and land in the JSON-lines record; their byte counts agree with
 * what Spark itself reports to an independent listener.
 */
@Timeout(600)
class StageSignalsTest {
    @TempDir
    Path dir;

    @Test
    void aShuffleJobsStagesReachTheControllerAndTheRecord() throws Exception {
        Map<String, AtomicLong> spark = new ConcurrentHashMap<>();
        String appId;
        try (EmbeddedController controller = Fixtures.controller(true)) {
            SparkConf conf = LocalCluster.withSaba(LocalCluster.conf("signals"), controller.target(), "sort")
                    .set(SabaConf.SIGNALS_PATH, dir.resolve("signals").toString());
            try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
                appId = jsc.sc().applicationId();
                // Spark's own per-task numbers, summed by a listener of the test's
                jsc.sc().addSparkListener(new SparkListener() {
                    @Override
                    public void onTaskEnd(SparkListenerTaskEnd e) {
                        var m = e.taskMetrics();
                        add(spark, "remote", m.shuffleReadMetrics().remoteBytesRead());
                        add(spark, "written", m.shuffleWriteMetrics().bytesWritten());
                        add(spark, "tasks", 1);
                        add(spark, e.stageId() + " fetch wait", m.shuffleReadMetrics().fetchWaitTime());
                        // what crossed into each host in each stage: remote reads where the task ran, results at
                        // the driver
                        add(spark, e.stageId() + " into " + e.taskInfo().host(),
                                m.shuffleReadMetrics().remoteBytesRead());
                        add(spark, e.stageId() + " into " + jsc.sc().conf().get("spark.driver.host"),
                                m.resultSize());
                    }
                });
                await("registration").atMost(Duration.ofSeconds(60))
                        .until(() -> Fixtures.app(controller, appId) != null);
                Map<Integer, Long> result = LocalCluster.job(jsc, 60_000, 97);
                assertEquals(97, result.size());

                // groupByKey and collect: a map stage and a result stage, 4 tasks each
                await("both stages at the controller").atMost(Duration.ofSeconds(60))
                        .until(() -> signals(controller, appId) != null && signals(controller, appId).reported() == 2);
                AppSignals kept = signals(controller, appId);
                Map<String, WorkSignals> byUnit = new TreeMap<>();
                kept.latest().forEach(s -> byUnit.put(s.unit(), s));
                System.out.println("work signals at the controller: " + byUnit.values());
                assertEquals(List.of("stage 0.0", "stage 1.0"), List.copyOf(byUnit.keySet()));
                WorkSignals map = byUnit.get("stage 0.0");
                WorkSignals reduce = byUnit.get("stage 1.0");
                assertEquals(4, map.tasks());
                assertEquals(4, reduce.tasks());
                // 60,000 records of ~50 B, LZ4-compressed by the shuffle (about 0.55 MB)
                assertTrue(map.bytes("shuffle_write") > 200_000, map.toString());
                assertEquals(60_000, map.count("shuffle_records_written"));
                assertEquals(0, map.bytes("shuffle_remote_read"));
                assertTrue(reduce.bytes("shuffle_remote_read") > 100_000, "the other executor's blocks: " + reduce);
                assertTrue(reduce.count("shuffle_remote_blocks") > 0);
                assertEquals(60_000, reduce.count("shuffle_records_read"));
                assertTrue(reduce.bytes("task_result") > 0, "collect returns results");
                // the network wait is Spark's fetch wait summed over the stage's tasks; the map stage fetches nothing
                assertEquals(0, map.networkWaitMillis(), map.toString());
                assertEquals(spark.get("1 fetch wait").get(), reduce.networkWaitMillis(), "Spark's fetch wait: " + spark);
                for (int stage = 0; stage < 2; stage++) {
                    String prefix = stage + " into ";
                    long busiest = spark.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                            .mapToLong(e -> e.getValue().get()).max().orElse(0);
                    assertEquals(busiest, byUnit.get("stage " + stage + ".0").bytes(WorkSignals.BUSIEST_HOST_IN),
                            "the busiest host's bytes in stage " + stage + ": " + spark);
                }
                assertTrue(reduce.bytes(WorkSignals.BUSIEST_HOST_IN) >= reduce.bytes("task_result"));
                assertEquals(reduce.timeMillis("shuffle_fetch_wait"), reduce.networkWaitMillis());
                for (WorkSignals s : List.of(map, reduce)) {
                    assertTrue(s.runMillis() > 0 && s.durationMillis() > 0, s.toString());
                    assertTrue(s.networkWaitMillis() <= s.runMillis(), s.toString());
                }
                // the same bytes as Spark's own metrics
                assertEquals(spark.get("remote").get(), kept.total().bytes("shuffle_remote_read"));
                assertEquals(spark.get("written").get(), kept.total().bytes("shuffle_write"));
                assertEquals(spark.get("tasks").get(), kept.total().tasks());

                JsonNode app = null;
                String base = "http://127.0.0.1:" + controller.httpAddress().getPort();
                for (JsonNode a : new ObjectMapper().readTree(get(base + "/status.json")).get("applications")) {
                    if (a.get("app_id").asText().equals(appId)) {
                        app = a;
                    }
                }
                assertTrue(app != null, "the application on /status.json");
                JsonNode s = app.get("signals");
                assertEquals(2, s.get("reported").asLong());
                assertEquals(kept.total().bytes("shuffle_remote_read"),
                        s.get("total").get("bytes").get("shuffle_remote_read").asLong());
                assertEquals(2, s.get("latest").size());
            }
            List<WorkSignals> record = SignalsFile.read(dir.resolve("signals").resolve(appId + ".jsonl"));
            assertEquals(2, record.size(), "one line per stage");
            assertEquals(spark.get("remote").get(), record.stream().mapToLong(w -> w.bytes("shuffle_remote_read"))
                    .sum());
        }
    }

    private static void add(Map<String, AtomicLong> m, String k, long v) {
        m.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v);
    }

    private static AppSignals signals(EmbeddedController c, String appId) {
        return c.controller().status(false).signals().get(appId);
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
