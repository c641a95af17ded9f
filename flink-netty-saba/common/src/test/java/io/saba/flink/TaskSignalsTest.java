package io.saba.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.client.SignalsFile;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.signals.AppSignals;
import io.saba.proto.v1.AppStatus;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.StatusRequest;
import io.saba.wire.WorkSignals;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.executiongraph.ExecutionAttemptID;
import org.apache.flink.runtime.executiongraph.IOMetrics;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work signals of real tasks: MiniClusters of two TaskManagers (real Netty shuffle over loopback) whose
 * TaskManagers report each task's signals to a real controller over gRPC when the task ends, and record them.
 * The numbers are checked against what Flink itself reports to its JobManager for the same tasks.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TaskSignalsTest {
    private static final long N = 200_000;
    private static final int KEYS = 97;
    private static final int P = 4;

    @TempDir
    Path dir;

    @Test
    void aShuffleJobsTasksReachTheControllerItsStatusPagesAndTheRecord() throws Exception {
        Path record = dir.resolve("signals");
        try (EmbeddedController controller = Controllers.start();
             MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target(),
                     SabaOptions.SIGNALS_PATH.key(), record.toString()))) {
            CountDownLatch held = ShuffleJob.arm("signals", P);
            JobGraph g = ShuffleJob.buildHeldAfterShuffle("signals", N, KEYS, P, 16, "lr", "signals");
            List<JobVertex> vertices = g.getVerticesSortedTopologicallyFromSources();
            assertEquals(3, vertices.size(), "source and map, reduce, held map: " + vertices);
            String producers = "task " + vertices.get(0).getID() + "_";
            String consumers = "task " + vertices.get(1).getID() + "_";
            JobID id = Clusters.submit(m, g);
            String app = id.toHexString();
            try {
                assertTrue(held.await(3, TimeUnit.MINUTES), "the third vertex runs: the shuffle's tasks have ended");
                await("the shuffle's 8 tasks at the controller").atMost(Controllers.PATIENCE)
                        .until(() -> reported(controller, app) == 8);
                AppSignals kept = controller.controller().status(false).signals().get(app);
                System.out.println("work signals at the controller: " + kept.latest());
                List<WorkSignals> produced = new ArrayList<>();
                List<WorkSignals> consumed = new ArrayList<>();
                for (WorkSignals s : kept.latest()) {
                    (s.unit().startsWith(producers) ? produced : consumed).add(s);
                    assertTrue(s.unit().startsWith(producers) || s.unit().startsWith(consumers), s.unit());
                    assertEquals(1, s.tasks());
                    assertTrue(s.runMillis() > 0, s.toString());
                    assertTrue(s.networkWaitMillis() <= s.runMillis(), s.toString());
                    assertTrue(s.runMillis() <= s.durationMillis(), "run within deployment to end: " + s);
                    assertEquals(0, s.count("failed_tasks"));
                }
                assertEquals(P, produced.size());
                for (WorkSignals s : produced) {
                    assertTrue(s.bytes("shuffle_write") > 0, s.toString());
                    assertEquals(0, s.bytes("shuffle_read"), s.toString());
                    assertEquals(s.timeMillis("back_pressured"), s.networkWaitMillis(), "a source's idle is no wait");
                }
                for (WorkSignals s : consumed) {
                    // each reducer reads the sources on its own TaskManager and on the other one
                    assertTrue(s.bytes("shuffle_remote_read") > 0, "over the network: " + s);
                    assertTrue(s.bytes("shuffle_local_read") > 0, s.toString());
                    assertTrue(s.count("shuffle_remote_buffers") > 0, s.toString());
                    assertTrue(s.bytes("shuffle_read") > 0, s.toString());
                    assertEquals(s.timeMillis("idle") + s.timeMillis("back_pressured"), s.networkWaitMillis());
                }
                assertEquals(N, consumed.stream().mapToLong(s -> s.count("records_in")).sum(), "every record");

                // the status pages show the Flink job as they show a Spark application
                String base = "http://127.0.0.1:" + controller.httpAddress().getPort();
                JsonNode job = null;
                for (JsonNode a : new ObjectMapper().readTree(get(base + "/status.json")).get("applications")) {
                    if (a.get("app_id").asText().equals(app)) {
                        job = a;
                    }
                }
                assertNotNull(job, "the job on /status.json");
                assertEquals("flink", job.get("framework").asText());
                assertEquals(8, job.get("signals").get("reported").asLong());
                assertEquals(kept.total().bytes("shuffle_remote_read"),
                        job.get("signals").get("total").get("bytes").get("shuffle_remote_read").asLong());
                assertTrue(get(base + "/status").contains("8 units, network wait "), "the /status column");
                assertTrue(get(base + "/metrics").contains("saba_work_signals_total 8"));
            } finally {
                ShuffleJob.open("signals");
            }
            Map<String, Object> acc = Clusters.await(m, id);
            assertEquals(ShuffleJob.expected(N, KEYS)[1], acc.get(ShuffleJob.CHECKSUM));

            // the record holds every task, the last vertex's too, with Flink's own numbers
            Path file = record.resolve(app + ".jsonl");
            await("12 lines").atMost(Controllers.PATIENCE).until(() -> lines(file) == 3 * P);
            Map<String, IOMetrics> flink = flinksOwn(m.getArchivedExecutionGraph(id).get(1, TimeUnit.MINUTES));
            List<WorkSignals> all = SignalsFile.read(file);
            assertEquals(flink.keySet(), new java.util.TreeSet<>(all.stream().map(WorkSignals::unit).toList()));
            for (WorkSignals s : all) {
                IOMetrics f = flink.get(s.unit());
                assertEquals(f.getNumBytesIn(), s.bytes("shuffle_read"), s.unit());
                assertEquals(f.getNumBytesOut(), s.bytes("shuffle_write"), s.unit());
                assertEquals(f.getNumRecordsIn(), s.count("records_in"), s.unit());
                assertEquals(f.getNumRecordsOut(), s.count("records_out"), s.unit());
                assertEquals(f.getAccumulateIdleTime(), s.timeMillis("idle"), s.unit());
                assertEquals(f.getAccumulateBackPressuredTime(), s.timeMillis("back_pressured"), s.unit());
            }
            String line = Files.readAllLines(file).get(0);
            assertTrue(line.startsWith("{\"app_id\":\"" + app + "\",\"workload\":\"lr\",\"framework\":\"flink\""),
                    "the job's own workload: " + line);
        }
    }

    @Test
    void withSignalsDisabledNothingIsSentOrRecorded() throws Exception {
        Path record = dir.resolve("off");
        try (EmbeddedController controller = Controllers.start();
             MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target(),
                     SabaOptions.SIGNALS_ENABLED.key(), "false", SabaOptions.SIGNALS_PATH.key(), record.toString()))) {
            Map<String, Object> acc = Clusters.run(m, ShuffleJob.build("quiet", N, KEYS, P, 0, "lr", null));
            assertEquals(ShuffleJob.expected(N, KEYS)[1], acc.get(ShuffleJob.CHECKSUM));
            // the shuffle's producers ended seconds before the job: their signals would have been kept by now
            assertEquals(0, controller.controller().metrics().workSignals.sum(), "no work signals at all");
            assertFalse(Files.exists(record), "no record");
        }
    }

    @Test
    void withTheControllerDownTheJobFinishesAndTheRecordIsKept() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        Path record = dir.resolve("down");
        try (MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), "127.0.0.1:" + closedPort,
                SabaOptions.CONTROLLER_TIMEOUT.key(), "500 ms", SabaOptions.SIGNALS_PATH.key(), record.toString()))) {
            JobID id = Clusters.submit(m, ShuffleJob.build("alone", N, KEYS, P, 0, null, null));
            Map<String, Object> acc = Clusters.await(m, id);
            assertEquals(ShuffleJob.expected(N, KEYS)[1], acc.get(ShuffleJob.CHECKSUM));
            Path file = record.resolve(id.toHexString() + ".jsonl");
            await("both vertices' 8 tasks recorded").atMost(Controllers.PATIENCE).until(() -> lines(file) == 2 * P);
            assertTrue(Files.readAllLines(file).get(0).contains("\"workload\":\"alone\""), "named after the job");
        }
    }

    @Test
    void withoutAnAddressTaskManagersInTheJobManagersJvmReportToItsEmbeddedController() throws Exception {
        try (MiniCluster m = Clusters.saba(Map.of())) {
            CountDownLatch held = ShuffleJob.arm("embedded", P);
            JobID id = Clusters.submit(m, ShuffleJob.buildHeldAfterShuffle("embedded", N, KEYS, P, 0, "lr",
                    "embedded"));
            try {
                assertTrue(held.await(3, TimeUnit.MINUTES));
                String target = ControllerLink.embeddedInThisJvm();
                assertNotNull(target, "the JobManager started one");
                ManagedChannel ch = NettyChannelBuilder.forTarget(target).usePlaintext().build();
                try {
                    await("the shuffle's 8 tasks at the embedded controller").atMost(Controllers.PATIENCE).until(() -> {
                        for (AppStatus a : ControllerGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
                                .status(StatusRequest.newBuilder().setIncludeSignals(true).build()).getAppsList()) {
                            if (a.getAppId().equals(id.toHexString())) {
                                return a.getSignalsReported() == 8;
                            }
                        }
                        return false;
                    });
                } finally {
                    ch.shutdownNow();
                }
            } finally {
                ShuffleJob.open("embedded");
            }
            Clusters.await(m, id);
        }
        assertNull(ControllerLink.embeddedInThisJvm(), "gone with its JobManager");
    }

    private static long reported(EmbeddedController c, String app) {
        AppSignals s = c.controller().status(false).signals().get(app);
        return s == null ? 0 : s.reported();
    }

    private static long lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file).size() : 0;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Flink's own final IO metrics of every task, as its TaskManagers sent them with the tasks' final states. */
    private static Map<String, IOMetrics> flinksOwn(ArchivedExecutionGraph graph) {
        Map<String, IOMetrics> out = new java.util.TreeMap<>();
        for (AccessExecutionVertex v : graph.getAllExecutionVertices()) {
            ExecutionAttemptID a = v.getCurrentExecutionAttempt().getAttemptId();
            out.put("task " + a.getExecutionVertexId() + "_" + a.getAttemptNumber(),
                    v.getCurrentExecutionAttempt().getIOMetrics());
        }
        return out;
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
