package io.saba.clustertests.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.clustertests.LoopbackCapture;
import io.saba.clustertests.LoopbackCapture.Segment;
import io.saba.clustertests.Ports;
import io.saba.clustertests.RealClusterTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
 * written its work signals where {@code saba.signals.path} says. One cluster serves every case. Skips, saying why,
 * without tcpdump, tshark or root.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FlinkSessionIT extends RealClusterTest {
    private static final int N = 200_000;
    private static final int KEYS = 97;
    private static final int DATA_PORTS = 10;

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
                    "saba.workload", "pagerank",
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
        check(submit("cluster-workload", List.of()), "pagerank");
    }

    @Test
    @Order(3)
    void flinkRunDashDSetsTheJobsOwnWorkload() throws Exception {
        check(submit("own-workload", List.of("-Dsaba.workload=lr")), "lr");
    }

    private static void check(Job job, String workload) throws Exception {
        System.out.printf("%s: %s%n", workload, job);
        JsonNode app = job.registered();
        assertEquals("flink", app.path("framework").asText(), app.toString());
        assertEquals(workload, app.path("workload").asText(), app.toString());
        int level = app.path("level").asInt();
        assertTrue(level >= 1, "a Saba level: " + app);
        assertTrue(job.segments() >= 20, "the capture saw the job's data: " + job);
        long tagged = job.segmentsByDscp().getOrDefault(8 * level, 0L);
        assertTrue(tagged >= 0.99 * job.segments(), "≥ 99 % of the job's data segments carry DSCP " + 8 * level
                + ": " + job.segmentsByDscp());
        assertEquals(localResult, job.result(), "the same result as without Saba");
        Path signals = dir.resolve("signals").resolve(app.path("app_id").asText() + ".jsonl");
        assertTrue(Files.exists(signals) && Files.readAllLines(signals).size() >= 2,
                "the TaskManagers recorded the job's tasks in " + signals);
    }

    /** What one job did and showed: the controller's view of it while it ran, its data segments by DSCP. */
    private record Job(JsonNode registered, Map<Integer, Long> segmentsByDscp, String result) {
        long segments() {
            return segmentsByDscp.values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public String toString() {
            return registered.path("app_id").asText() + " (" + registered.path("workload") + " at level "
                    + registered.path("level") + "), data segments by DSCP " + segmentsByDscp;
        }
    }

    /**
     * {@code flink run} with {@code options}; while its sources wait at their gate the controller must show it (it is
     * the only Flink job with its workload), then its data moves under a capture of the TaskManagers' data ports.
     */
    private Job submit(String name, List<String> options) throws Exception {
        Path gate = dir.resolve(name + ".gate");
        Path out = dir.resolve(name + ".out");
        Process run = flink.run(name, options, List.of(out.toString(), Integer.toString(N), Integer.toString(KEYS),
                gate.toString()));
        String workload = options.isEmpty() ? "pagerank" : options.get(0).substring(options.get(0).indexOf('=') + 1);
        JsonNode registered;
        try {
            registered = controller.awaitApplication("a Flink job with workload " + workload,
                    a -> "flink".equals(a.path("framework").asText()) && workload.equals(a.path("workload").asText()));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + daemons.tails(), e);
        }
        LoopbackCapture capture = LoopbackCapture.start(dir.resolve(name + ".pcap"), dataPorts,
                dataPorts + DATA_PORTS - 1);
        List<Segment> segments;
        try {
            Files.writeString(gate, "");
            assertTrue(run.waitFor(5, TimeUnit.MINUTES), "flink run ended");
        } finally {
            segments = capture.stop();
        }
        assertEquals(0, run.exitValue(), "flink run's status\n" + daemons.tails());
        Map<Integer, Long> byDscp = new TreeMap<>();
        segments.forEach(s -> byDscp.merge(s.dscp(), 1L, Long::sum));
        return new Job(registered, byDscp, Files.readString(out));
    }
}
