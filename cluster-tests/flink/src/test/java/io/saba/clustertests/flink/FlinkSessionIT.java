package io.saba.clustertests.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.clustertests.Ports;
import io.saba.clustertests.RealClusterTest;
import io.saba.process.PacketCapture.Segment;
import io.saba.process.PacketCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Saba on a Flink standalone session cluster started as a user starts one: a JobManager and two TaskManagers as
 * separate JVMs whose {@code config.yaml} holds the README's entries (the shuffle-service factory, the controller's
 * address, a cluster-wide {@code saba.workload}, {@code saba.signals.path}), the plugin jar in {@code lib/}, a
 * standalone {@code saba controller}, and {@link GroupCountJob} submitted with {@code flink run}, once with the
 * cluster's workload and once with its own ({@code flink run -Dsaba.workload=lr}). Each job's result must equal the
 * same job's without Saba (Flink's local execution), the controller must show the job under its workload at a Saba
 * level, its data segments between the TaskManagers must carry that level's DSCP, and its TaskManagers must have
 * written its work signals where {@code saba.signals.path} says. Then two jobs at once, one on the controller's
 * default model: each socket between the TaskManagers carries one job's level, and both levels are seen. The
 * cluster's first job is the first after a cold start. One cluster serves every case; each Flink generation's module
 * runs them on its Flink with its jar. Skips, saying why, without tcpdump, tshark or root.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FlinkSessionIT extends RealClusterTest {
    private static final int N = 200_000;
    private static final int KEYS = 97;
    private static final int DATA_PORTS = 10;
    private static final String CLUSTER_WORKLOAD = "pagerank";
    /** The applications the controller has shown so far: a finished job may linger there for a moment. */
    private static final Set<String> SEEN = new HashSet<>();

    private static FlinkSession flink;
    private static int dataPorts;
    private static String localResult;

    @BeforeAll
    static void startFlink() {
        startCluster("Flink session cluster", controller -> {
            dataPorts = Ports.freeBlock(DATA_PORTS);
            Map<String, String> settings = new TreeMap<>(Map.of(
                    // the README's entries
                    "shuffle-service-factory.class", "io.saba.flink.SabaShuffleServiceFactory",
                    "saba.controller.address", controller,
                    "saba.workload", CLUSTER_WORKLOAD,
                    "saba.signals.path", dir.resolve("signals").toString(),
                    // the TaskManagers' data servers in one block of ports, for the capture
                    "taskmanager.data.bind-port", dataPorts + "-" + (dataPorts + DATA_PORTS - 1)));
            flink = FlinkSession.start(daemons, dir.resolve("flink"), 2, settings);
        });
    }

    @Test
    @Order(1)
    void withoutSabaTheJobGivesTheReference() throws Exception {
        Path out = dir.resolve("local.out");
        Process p = flink.runLocally(List.of(out.toString(), Integer.toString(N), Integer.toString(KEYS)));
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the local run ended");
        assertEquals(0, p.exitValue(), "the local run's status\n" + daemons.tails());
        localResult = Files.readString(out);
        assertEquals(KEYS, localResult.lines().count(), localResult);
    }

    @Test
    @Order(2)
    void aJobTakesTheClustersWorkloadFromConfigYaml() throws Exception {
        check(submit("cluster-workload", CLUSTER_WORKLOAD), CLUSTER_WORKLOAD);
    }

    @Test
    @Order(3)
    void flinkRunDashDSetsTheJobsOwnWorkload() throws Exception {
        check(submit("own-workload", "lr"), "lr");
    }

    /**
     * Two jobs at once, one TaskManager slot of each on each TaskManager: one of a workload the table does not know
     * (the controller's default model, as for a job without a workload) and one with {@code lr}. The controller gives
     * them two levels, every data segment between the TaskManagers carries one of the two jobs' DSCPs, and each socket
     * carries one, both ways (a level's data never rides another level's connection). The default-model job starts
     * first: a running job keeps the level its partitions were stamped with when the later one registers.
     */
    @Test
    @Order(4)
    void twoConcurrentJobsOneOnTheDefaultModelCarryTheirOwnDscpsSocketBySocket() throws Exception {
        flink.awaitAllSlotsFree();
        Started b = start("concurrent-unknown", "nightly-report");
        Started a = start("concurrent-lr", "lr");
        // the levels the controller holds with both running
        JsonNode unknown = current(b);
        int levelA = current(a).path("level").asInt();
        int levelB = unknown.path("level").asInt();
        assertFalse(unknown.path("workload_known").asBoolean(), "the controller's default model: " + unknown);
        assertTrue(levelA >= 1 && levelB >= 1, "Saba levels: " + levelA + ", " + levelB);
        assertNotEquals(levelA, levelB, "lr and the default model are different classes");
        List<Segment> segments = finish(List.of(a, b));
        Map<Integer, Long> byDscp = new TreeMap<>();
        Map<String, Set<Integer>> dscpsBySocket = new TreeMap<>();
        for (Segment s : segments) {
            byDscp.merge(s.dscp(), 1L, Long::sum);
            boolean fromServer = s.srcPort() >= dataPorts && s.srcPort() < dataPorts + DATA_PORTS;
            String socket = fromServer ? s.srcPort() + "<>" + s.dstPort() : s.dstPort() + "<>" + s.srcPort();
            dscpsBySocket.computeIfAbsent(socket, k -> new TreeSet<>()).add(s.dscp());
        }
        System.out.printf("concurrent: lr at level %d, nightly-report at level %d; data segments by DSCP %s; "
                + "sockets %s%n", levelA, levelB, byDscp, dscpsBySocket);
        assertEquals(Set.of(8 * levelA, 8 * levelB), byDscp.keySet(),
                "data segments carry exactly the two jobs' DSCPs: " + byDscp);
        dscpsBySocket.forEach((socket, dscps) -> assertEquals(1, dscps.size(),
                "socket " + socket + " carries one level, both ways: " + dscps));
        assertEquals(localResult, Files.readString(a.out()), "lr's result");
        assertEquals(localResult, Files.readString(b.out()), "nightly-report's result");
        assertNoControllerErrorAtTheJobManager();
    }

    private static void check(Job job, String workload) throws Exception {
        System.out.printf("%s: %s%n", workload, job);
        JsonNode app = job.registered();
        assertEquals("flink", app.path("framework").asText(), app.toString());
        assertEquals(workload, app.path("workload").asText(), app.toString());
        int level = app.path("level").asInt();
        assertTrue(level >= 1, "a Saba level: " + app);
        assertEquals(2, job.placement().entrySet().stream().filter(v -> v.getKey().contains("Reduce"))
                .flatMap(v -> v.getValue().stream()).distinct().count(),
                "the keyed reduce ran on both TaskManagers, so half of every source's data crossed their data ports: "
                        + job.placement());
        assertTrue(job.segments() >= 20, "the capture saw the job's data: " + job);
        long tagged = job.segmentsByDscp().getOrDefault(8 * level, 0L);
        assertTrue(tagged >= 0.99 * job.segments(), "≥ 99 % of the job's data segments carry DSCP " + 8 * level
                + ": " + job.segmentsByDscp());
        assertEquals(localResult, job.result(), "the same result as without Saba");
        Path signals = dir.resolve("signals").resolve(app.path("app_id").asText() + ".jsonl");
        assertTrue(Files.exists(signals) && Files.readAllLines(signals).size() >= 2,
                "the TaskManagers recorded the job's tasks in " + signals);
        assertNoControllerErrorAtTheJobManager();
    }

    /** The JobManager registers jobs; a controller's error status (gRPC INTERNAL) must not show in its log. */
    private static void assertNoControllerErrorAtTheJobManager() throws Exception {
        assertFalse(Files.readString(daemons.log("jobmanager")).contains("INTERNAL"),
                "no controller error in the JobManager's log: " + daemons.log("jobmanager"));
    }

    /** What one job did and showed: the controller's view of it while it ran, its data segments by DSCP. */
    private record Job(JsonNode registered, Map<Integer, Long> segmentsByDscp, String result,
            Map<String, List<String>> placement) {
        long segments() {
            return segmentsByDscp.values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public String toString() {
            return registered.path("app_id").asText() + " (" + registered.path("workload") + " at level "
                    + registered.path("level") + ") placed " + placement + ", data segments by DSCP "
                    + segmentsByDscp;
        }
    }

    /** A submitted job held at its gate, and the controller's view of it then. */
    private record Started(Process run, Path gate, Path out, JsonNode registered) {
        String appId() {
            return registered.path("app_id").asText();
        }
    }

    /**
     * {@code flink run}, with {@code -Dsaba.workload=} unless the job takes the cluster's; the controller must show it
     * while its sources wait at their gate (the only Flink job with its workload the controller has not shown before).
     */
    private Started start(String name, String workload) throws Exception {
        Path gate = dir.resolve(name + ".gate");
        Path out = dir.resolve(name + ".out");
        List<String> options = workload.equals(CLUSTER_WORKLOAD) ? List.of() : List.of("-Dsaba.workload=" + workload);
        Process run = flink.run(name, options, List.of(out.toString(), Integer.toString(N), Integer.toString(KEYS),
                gate.toString()));
        try {
            JsonNode registered = controller.awaitApplication("a Flink job with workload " + workload,
                    a -> "flink".equals(a.path("framework").asText()) && workload.equals(a.path("workload").asText())
                            && !SEEN.contains(a.path("app_id").asText()));
            SEEN.add(registered.path("app_id").asText());
            return new Started(run, gate, out, registered);
        } catch (AssertionError | ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n" + daemons.tails(), e);
        }
    }

    private static JsonNode current(Started s) {
        return controller.application(a -> s.appId().equals(a.path("app_id").asText())).orElseThrow();
    }

    /**
     * Opens the jobs' gates under a capture of the TaskManagers' data ports, waits for every {@code flink run}, and
     * returns the segments that carried data (handshakes and pure ACKs left out).
     */
    private static List<Segment> finish(List<Started> jobs) throws Exception {
        PacketCapture capture = PacketCapture.onLoopback("tcp portrange " + dataPorts + "-"
                + (dataPorts + DATA_PORTS - 1), dir.resolve(jobs.get(0).gate().getFileName() + ".pcap"));
        List<Segment> segments;
        try {
            for (Started s : jobs) {
                Files.writeString(s.gate(), "");
            }
            for (Started s : jobs) {
                assertTrue(s.run().waitFor(5, TimeUnit.MINUTES), "flink run ended");
            }
        } finally {
            segments = capture.stop();
        }
        for (Started s : jobs) {
            assertEquals(0, s.run().exitValue(), "flink run's status\n" + daemons.tails());
        }
        return segments.stream().filter(s -> s.payload() > 0).toList();
    }

    /** One job on the otherwise idle cluster, through its gate and to its end, its data captured. */
    private Job submit(String name, String workload) throws Exception {
        flink.awaitAllSlotsFree();
        Started s = start(name, workload);
        Map<Integer, Long> byDscp = new TreeMap<>();
        finish(List.of(s)).forEach(seg -> byDscp.merge(seg.dscp(), 1L, Long::sum));
        return new Job(s.registered(), byDscp, Files.readString(s.out()), flink.placement(s.appId()));
    }
}
