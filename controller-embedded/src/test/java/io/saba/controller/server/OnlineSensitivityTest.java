package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.alloc.CorunSearches;
import io.saba.controller.estimate.LearnedModels;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.state.StateReads;
import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.estimate.ModelDrift;
import io.saba.wire.Transport;
import io.saba.wire.WorkSignals;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The online estimate through a real controller on loopback gRPC, fed by a real client: an application's units
 * become its workload's estimate at the share its weight gave it, shown on /status.json with the model's source;
 * units that contradict the workload's table are flagged as drift on /status, /status.json and /metrics and in one
 * log line; an unprofiled workload leaves the default model; a unit reported after its application left still
 * counts; a unit that reports its busiest host's bytes is read from them over the topology's link rate.
 * Fixtures' table: lr is D(b) = 5 − 8b + 4b² (3.25 at 25 %, 2 at 50 %).
 */
class OnlineSensitivityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long RUN = 2_000;
    private static final long WAIT = 200;

    /** A stage that ended now after 30 ms; its tasks ran {@code RUN} ms, {@code wait} of them blocked on fetches. */
    static WorkSignals stage(int i, long wait) {
        return new WorkSignals("stage " + i + ".0", "reduceByKey at Job.java:" + i, System.currentTimeMillis(), 4, 30,
                RUN, wait, Map.of("shuffle_fetch_wait", wait), Map.of("shuffle_remote_read", 2_000_000L), Map.of());
    }

    private static InetSocketAddress host(int h, int port) {
        return new InetSocketAddress("10.0.0." + h, port);
    }

    @Test
    void unitsBecomeTheWorkloadsEstimateAndContradictingOnesAreFlaggedAsDrift() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0))
                .sensitivity(SensitivityMode.BLENDED).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication[] both = sharingAPort(c, client, new AppSpec("lr-1", "lr", "spark", "u", 0),
                        new AppSpec("sort-1", "sort", "spark", "u", 0));
                SabaApplication lr = both[0];
                JsonNode before = app(get(base + "/status.json"), "lr-1");
                assertEquals("profiled", before.get("model").get("source").asText());
                assertFalse(before.get("model").has("estimate"), "no unit yet");
                double s = shareAtSharedPort(get(base + "/status.json"));

                ByteArrayOutputStream log = new ByteArrayOutputStream();
                PrintStream err = System.err;
                System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
                try {
                    lr.report(stage(1, WAIT));
                    await("the first unit").atMost(Fixtures.PATIENCE).until(() -> units(c, "lr") == 1);
                    JsonNode one = app(get(base + "/status.json"), "lr-1").get("model");
                    // by hand: c = 1800 ms, n = 200·s at the full link, φ = n / (c + n)
                    double phi = WAIT * s / (RUN - WAIT + WAIT * s);
                    assertEquals(phi, one.get("estimate").get("network_share").asDouble(), 1e-9);
                    assertTrue(one.get("estimate").get("network_share_error").isNull(), "one unit: no spread");
                    assertEquals(1 - phi + phi / 0.25,
                            one.get("estimate").get("at").get("0.25").get("slowdown").asDouble(), 1e-9);
                    assertEquals("blended", one.get("source").asText());
                    assertEquals(3.25, one.get("table_slowdown_at").get("0.25").asDouble(), 1e-9);
                    // the table worth 8 units, the estimate 1
                    assertEquals((8 * 3.25 + (1 - phi + phi / 0.25)) / 9,
                            one.get("slowdown_at").get("0.25").asDouble(), 1e-9);
                    assertFalse(one.get("drift").get("flagged").asBoolean());
                    assertFalse(one.get("drift").get("judged").asBoolean(), "one unit");

                    for (int i = 2; i <= 11; i++) {
                        lr.report(stage(i, WAIT));
                    }
                    await("eleven units").atMost(Fixtures.PATIENCE).until(() -> units(c, "lr") == 11);
                } finally {
                    System.setErr(err);
                }
                JsonNode model = app(get(base + "/status.json"), "lr-1").get("model");
                JsonNode drift = model.get("drift");
                assertTrue(drift.get("flagged").asBoolean(), model.toString());
                assertTrue(drift.get("judged").asBoolean(), model.toString());
                assertTrue(drift.get("deviation").asDouble() < -0.5, "about 1.3 against 3.25: " + drift);
                assertEquals(4, drift.get("units_contradicting_in_a_row").asInt(), "units 8 to 11 (the first "
                        + ModelDrift.MIN_UNITS + " are judged together); the flag was raised at unit 10");
                assertTrue(model.get("estimate").get("network_share_error").isNumber());
                String said = log.toString(StandardCharsets.UTF_8);
                assertEquals(1, said.lines().filter(l -> l.contains("workload lr has drifted from its profile"))
                        .count(), said);
                assertTrue(said.contains("the table 3.25 (-"), said);
                String metrics = get(base + "/metrics");
                assertTrue(metrics.contains("\nsaba_sensitivity_drift{workload=\"lr\"} 1.0\n"), metrics);
                assertTrue(metrics.contains("\nsaba_sensitivity_drifts_total{workload=\"lr\"} 1\n"), metrics);
                assertTrue(metrics.contains("\nsaba_sensitivity_observations_total 11\n"), metrics);
                String page = get(base + "/status");
                assertTrue(page.contains("models: blended"), page);
                assertTrue(page.contains("DRIFT -"), page); // the drift flag, its deviation negative
            }
        }
    }

    @Test
    void anUnprofiledWorkloadLeavesTheDefaultModelAndItsLastUnitsCountAfterItLeft() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0))
                .sensitivity(SensitivityMode.BLENDED).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient jobManager = SabaClient.connect(ClientConfig.defaults(c.target()));
                 SabaClient taskManager = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication etl = jobManager.register(new AppSpec("job-1", "etl", "flink", "u", 0));
                etl.assigned().get(30, TimeUnit.SECONDS);
                etl.connectionOpened(host(4, 40_004), host(5, 7337), Transport.TCP);
                await("weighted").atMost(Fixtures.PATIENCE)
                        .until(() -> !c.controller().status(false).ports().isEmpty());
                Fixtures.quiesce(c);
                JsonNode before = app(get(base + "/status.json"), "job-1");
                assertEquals("default", before.get("model").get("source").asText());

                taskManager.report("job-1", stage(1, 1_000)); // alone on its ports: the whole link, φ = 0.5
                await("one unit").atMost(Fixtures.PATIENCE).until(() -> units(c, "etl") == 1);
                JsonNode model = app(get(base + "/status.json"), "job-1").get("model");
                assertEquals("blended", model.get("source").asText());
                double defaultAt25 = Fixtures.catalog().defaultModel().slowdown(0.25); // the table in force
                assertEquals((defaultAt25 + 2.5) / 2, model.get("slowdown_at").get("0.25").asDouble(), 1e-9,
                        "the default model worth one unit against one");
                assertTrue(model.get("table_slowdown_at").isNull());
                assertFalse(model.has("drift"), "no table to drift from");

                // the job's last task ran while the job had its weight; its report arrives after the JobManager left
                // (a unit that ran wholly after the departure had no share to be observed at)
                WorkSignals lastTask = stage(2, 1_000);
                etl.deregister();
                await("deregistered").atMost(Fixtures.PATIENCE).until(() -> c.controller().app("job-1") == null);
                taskManager.report("job-1", lastTask);
                await("its last unit counted").atMost(Fixtures.PATIENCE).until(() -> units(c, "etl") == 2);
                JsonNode gone = JSON.readTree(get(base + "/status.json"));
                assertTrue(gone.get("applications").isEmpty(), "the application left");
                JsonNode learnt = gone.get("workloads").get("etl");
                assertEquals(2, learnt.get("estimate").get("units").asInt(), "its workload's estimate stays listed");
                assertEquals(0.5, learnt.get("estimate").get("network_share").asDouble(), 1e-12);
                assertEquals("blended", learnt.get("source").asText());
                assertEquals(0, taskManager.droppedSignals());
                assertTrue(c.controller().status(false).signals().isEmpty(), "raw signals go with the registration");
            }
        }
    }

    @Test
    void underTheDefaultTableModeEstimatesOnlyShow() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication lr = client.register(new AppSpec("lr-1", "lr", "spark", "u", 0));
                lr.assigned().get(30, TimeUnit.SECONDS);
                lr.connectionOpened(host(1, 40_001), host(2, 7337), Transport.TCP);
                await("weighted").atMost(Fixtures.PATIENCE)
                        .until(() -> !c.controller().status(false).ports().isEmpty());
                Fixtures.quiesce(c);
                for (int i = 1; i <= 10; i++) {
                    lr.report(stage(i, WAIT));
                }
                await("ten units").atMost(Fixtures.PATIENCE).until(() -> units(c, "lr") == 10);
                JsonNode status = JSON.readTree(get(base + "/status.json"));
                assertEquals("table", status.get("sensitivity").asText());
                JsonNode model = app(status, "lr-1").get("model");
                assertEquals("profiled", model.get("source").asText());
                assertEquals(3.25, model.get("slowdown_at").get("0.25").asDouble(), 1e-12, "the table's");
                // alone on its ports: φ = 200 / 2000
                assertEquals(0.1, model.get("estimate").get("network_share").asDouble(), 1e-12);
                assertTrue(model.get("drift").get("flagged").asBoolean(), "drift shows whatever the mode");
            }
        }
    }

    @Test
    void withTheTopologysLinkRateAUnitsNetworkTimeIsItsBusiestHostsBytesOverTheLink() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0))
                .sensitivity(SensitivityMode.ONLINE).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication sort = client.register(new AppSpec("sort-1", "sort", "spark", "u", 0));
                sort.assigned().get(30, TimeUnit.SECONDS);
                sort.connectionOpened(host(1, 40_001), host(2, 7337), Transport.TCP);
                await("weighted").atMost(Fixtures.PATIENCE)
                        .until(() -> !c.controller().status(false).ports().isEmpty());
                Fixtures.quiesce(c);
                // the fixture's links are 10 Gbit/s: 625 MB into the busiest host need 0.5 s of the stage's 1 s wall
                // time, whatever its tasks' run time (2 s) and fetch wait (0.2 s) say
                sort.report(new WorkSignals("stage 1.0", "sortByKey", System.currentTimeMillis(), 4, 1_000, RUN, WAIT,
                        Map.of("shuffle_fetch_wait", WAIT), Map.of("shuffle_remote_read", 1_000_000_000L,
                        WorkSignals.BUSIEST_HOST_IN, 625_000_000L), Map.of()));
                await("the unit").atMost(Fixtures.PATIENCE).until(() -> units(c, "sort") == 1);
                JsonNode estimate = app(get(base + "/status.json"), "sort-1").get("model").get("estimate");
                assertEquals(0.5, estimate.get("network_share").asDouble(), 1e-12, estimate.toString());
                assertEquals("link", estimate.get("signal").asText());
                assertEquals(1, estimate.get("link_units").asInt());
                assertEquals(1_000_000_000L, estimate.get("network_bytes").asLong());

                sort.report(stage(2, WAIT)); // an older plugin's unit: no busiest host, the wait is the signal
                await("two units").atMost(Fixtures.PATIENCE).until(() -> units(c, "sort") == 2);
                JsonNode both = app(get(base + "/status.json"), "sort-1").get("model").get("estimate");
                assertEquals("mixed", both.get("signal").asText());
                assertEquals(1, both.get("link_units").asInt());
                assertTrue(get(base + "/status").contains("(2 units, mixed)"));
            }
        }
    }

    @Test
    void twoUnprofiledWorkloadsSharingAPortAreWeightedByTheCorunPredictorOnTheirLearntRecords() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0))
                .sensitivity(SensitivityMode.ONLINE).allocation(AllocationPipeline.Allocation.CORUN).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication[] both = sharingAPort(c, client, new AppSpec("bulk-1", "bulk", "spark", "u", 0),
                        new AppSpec("burst-1", "burst", "spark", "u", 0));
                SabaApplication bulk = both[0];
                SabaApplication burst = both[1];
                // at the fixture's 10 Gbit/s: bulk's stages send for all of their 4 s, burst's for 0.3 s of 1 s
                for (int i = 1; i <= LearnedModels.ONLINE_MIN_UNITS; i++) {
                    bulk.report(linkStage(i, 4_000, 5_000_000_000L));
                    burst.report(linkStage(i, 1_000, 375_000_000L));
                }
                await("both learnt").atMost(Fixtures.PATIENCE)
                        .until(() -> units(c, "bulk") == 3 && units(c, "burst") == 3);
                Fixtures.quiesce(c);
                JsonNode status = JSON.readTree(get(base + "/status.json"));
                for (String app : new String[] {"bulk-1", "burst-1"}) {
                    JsonNode corun = app(status, app).get("model").get("corun_profile");
                    assertEquals("learnt", corun.get("source").asText(), corun.toString());
                    assertEquals(3, corun.get("units").asInt(), corun.toString());
                }
                // the predictor, asked by hand with the same records, gives burst most of the port: it leaves the
                // link idle most of its run, and a work-conserving port hands that time to bulk
                CorunProfile bulkProfile = c.controller().replica().corunProfileOf("bulk");
                CorunProfile burstProfile = c.controller().replica().corunProfileOf("burst");
                assertEquals(12, bulkProfile.record().seconds(), 1e-9);
                assertEquals(1.0, bulkProfile.record().meanUtilisation(), 1e-9);
                // burst's 0.3 s at the full link per stage, whatever share it had; its computation is the rest of the
                // stage once its sending at that share is taken out, 1 s − 0.3 s / share (0.4 s at half the link)
                TrafficRecord burstRecord = burstProfile.record();
                assertEquals(0.9, burstRecord.meanUtilisation() * burstRecord.seconds(), 1e-9);
                assertTrue(burstRecord.seconds() <= 3 + 1e-9, burstRecord.toString());
                // (C_Saba 0.9, the solver's floor 0.05: the fixture's)
                double[] chosen = new CorunSearches().choose(List.of(bulkProfile, burstProfile), 0.9, 0.05,
                        new double[] {0.45, 0.45}).weights();
                double burstShare = chosen[1] / (chosen[0] + chosen[1]);
                assertTrue(burstShare > 0.9, "burst's share " + burstShare);
                await("the shared port weighted as predicted").atMost(Fixtures.PATIENCE).until(() -> {
                    for (var p : c.controller().status(false).ports().values()) {
                        Map<String, Double> w = p.appWeights();
                        if (w.size() == 2) {
                            return Math.abs(w.get("burst-1") / (w.get("burst-1") + w.get("bulk-1")) - burstShare)
                                    < 1e-3;
                        }
                    }
                    return false;
                });
            }
        }
    }

    @Test
    void aLearningControllerGivesEachUnprofiledWorkloadAQueueOfItsOwnSoItsBytesCanBeCounted() throws Exception {
        for (SensitivityMode mode : SensitivityMode.values()) {
            try (EmbeddedController c = Fixtures.builder().sensitivity(mode).build()) {
                c.start();
                try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                    SabaApplication[] both = sharingAPort(c, client, new AppSpec("bulk-1", "bulk", "spark", "u", 0),
                            new AppSpec("burst-1", "burst", "spark", "u", 0));
                    int bulk = both[0].assigned().get();
                    int burst = both[1].assigned().get();
                    var port = c.controller().status(false).ports().values().stream()
                            .filter(p -> p.appWeights().size() == 2).findFirst().orElseThrow();
                    if (mode == SensitivityMode.TABLE) {
                        assertEquals(bulk, burst, "nothing learns from the counts: one level for one model");
                    } else {
                        assertFalse(bulk == burst, mode + ": levels " + bulk + ", " + burst);
                        assertFalse(port.queueOfLevel().get(bulk).equals(port.queueOfLevel().get(burst)),
                                mode + ": " + port);
                    }
                    assertEquals(port.appWeights().get("bulk-1"), port.appWeights().get("burst-1"), 1e-12,
                            "the same default model: equal weights");
                }
            }
        }
    }

    /**
     * Registers two applications that both send to h2, so they share the switch's port towards it, and returns them
     * once both are weighted there and the controller is quiet.
     */
    private static SabaApplication[] sharingAPort(EmbeddedController c, SabaClient client, AppSpec a, AppSpec b)
            throws Exception {
        SabaApplication first = client.register(a);
        SabaApplication second = client.register(b);
        first.assigned().get(30, TimeUnit.SECONDS);
        second.assigned().get(30, TimeUnit.SECONDS);
        first.connectionOpened(host(1, 40_001), host(2, 7337), Transport.TCP);
        second.connectionOpened(host(3, 40_003), host(2, 7337), Transport.TCP);
        await("both weighted at one port").atMost(Fixtures.PATIENCE)
                .until(() -> c.controller().status(false).ports().values()
                .stream().anyMatch(p -> p.appWeights().size() == 2));
        Fixtures.quiesce(c);
        return new SabaApplication[] {first, second};
    }

    /** A stage that ended now, {@code wallMillis} long, its busiest host receiving {@code busiestBytes}. */
    private static WorkSignals linkStage(int i, long wallMillis, long busiestBytes) {
        return new WorkSignals("stage " + i + ".0", "stage " + i, System.currentTimeMillis(), 4, wallMillis,
                4 * wallMillis, 0, Map.of(), Map.of("shuffle_remote_read", busiestBytes,
                WorkSignals.BUSIEST_HOST_IN, busiestBytes), Map.of());
    }

    @Test
    void withoutATableAnOnlineControllerSaysWorkloadsLearnTheirOwn() throws Exception {
        try (EmbeddedController c = EmbeddedController.builder().topology(Fixtures.singleSwitch(8))
                .http(new InetSocketAddress("127.0.0.1", 0)).sensitivity(SensitivityMode.ONLINE).build()) {
            c.start();
            JsonNode status = JSON.readTree(get("http://127.0.0.1:" + c.httpAddress().getPort() + "/status.json"));
            assertEquals("none: every workload starts from the default model and learns its own (sensitivity: "
                    + "online)", status.get("table").asText());
            assertTrue(status.get("workloads").isEmpty(), "nothing learnt yet");
        }
    }

    @Test
    void withoutATableANewWorkloadBesideALearntOneIsWeightedAsTheMeanOfTheLearntModels() throws Exception {
        try (EmbeddedController c = EmbeddedController.builder().topology(Fixtures.singleSwitch(8))
                .http(new InetSocketAddress("127.0.0.1", 0)).sensitivity(SensitivityMode.ONLINE).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                SabaApplication[] both = sharingAPort(c, client, new AppSpec("lr-1", "lr", "spark", "u", 0),
                        new AppSpec("sort-1", "sort", "spark", "u", 0));
                for (int i = 1; i <= LearnedModels.ONLINE_MIN_UNITS; i++) {
                    both[0].report(stage(i, 1_000)); // lr: half of its tasks' time blocked on fetches
                }
                await("lr learnt").atMost(Fixtures.PATIENCE)
                        .until(() -> units(c, "lr") == LearnedModels.ONLINE_MIN_UNITS);
                Fixtures.quiesce(c);
                JsonNode status = JSON.readTree(get(base + "/status.json"));
                JsonNode lr = app(status, "lr-1").get("model");
                JsonNode sort = app(status, "sort-1").get("model");
                assertEquals("estimated", lr.get("source").asText());
                assertEquals("default", sort.get("source").asText());
                double learnt = lr.get("slowdown_at").get("0.25").asDouble();
                assertTrue(learnt > 1.5, "lr learnt a sensitive curve: " + lr);
                // the one learnt model is the mean of the learnt ones: sort is taken as sensitive as lr, not as
                // insensitive (which would give it the solver's floor at the port they share)
                assertEquals(learnt, sort.get("slowdown_at").get("0.25").asDouble(), 1e-9, sort.toString());
                var shared = c.controller().status(false).ports().values().stream()
                        .filter(p -> p.appWeights().size() == 2).findFirst().orElseThrow().appWeights();
                assertEquals(shared.get("lr-1"), shared.get("sort-1"), 1e-12, "one model: equal weights " + shared);
            }
        }
    }

    /** The number of units the workload's estimate rests on (0 before any). */
    private static int units(EmbeddedController c, String workload) {
        var v = c.controller().replica().read(StateReads::estimates).get(workload);
        return v == null || v.estimate() == null ? 0 : v.estimate().observations();
    }

    /** lr-1's weight over the Saba weights at the port it shares with sort-1. */
    private static double shareAtSharedPort(String statusJson) throws Exception {
        for (JsonNode p : JSON.readTree(statusJson).get("ports")) {
            JsonNode w = p.get("app_weights");
            if (w.has("lr-1") && w.has("sort-1")) {
                return w.get("lr-1").asDouble() / (w.get("lr-1").asDouble() + w.get("sort-1").asDouble());
            }
        }
        throw new AssertionError("no port holds both: " + statusJson);
    }

    private static JsonNode app(String statusJson, String appId) throws Exception {
        return app(JSON.readTree(statusJson), appId);
    }

    private static JsonNode app(JsonNode status, String appId) {
        for (JsonNode a : status.get("applications")) {
            if (a.get("app_id").asText().equals(appId)) {
                return a;
            }
        }
        throw new AssertionError(appId + " not on the status: " + status);
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
