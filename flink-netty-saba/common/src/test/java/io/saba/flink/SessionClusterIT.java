package io.saba.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saba on a real Flink session cluster, as a user runs one: a JobManager and two TaskManagers as separate JVMs with
 * the README's config.yaml entries and the shaded jar in {@code lib/}, jobs submitted with {@code flink run}, a
 * controller on loopback, and every TaskManager-to-TaskManager data segment captured on the wire. One cluster
 * serves every case; the first case runs the cluster's first job.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class SessionClusterIT {
    private static final long N = 200_000;
    private static final int KEYS = 97;
    private static final int PARALLELISM = 2;
    private static final int PAYLOAD = 64;

    @TempDir
    static Path dir;
    private static String unavailable;
    private static EmbeddedController controller;
    private static SessionCluster cluster;
    private static int from;
    private static int to;

    @BeforeAll
    static void start() throws Exception {
        unavailable = PacketCapture.unavailable();
        if (unavailable != null) {
            System.out.println("SessionClusterIT skipped: " + unavailable);
            return;
        }
        // below Linux's ephemeral range, so a port in it is a TaskManager's data server, never a client
        from = 20_000 + 50 * ThreadLocalRandom.current().nextInt(200);
        to = from + 49;
        controller = Controllers.start();
        long t0 = System.nanoTime();
        cluster = SessionCluster.start(dir.resolve("flink"), 2, Map.of(
                "shuffle-service-factory.class", Clusters.FACTORY,
                SabaOptions.CONTROLLER_ADDRESS.key(), controller.target(),
                "taskmanager.data.bind-port", from + "-" + to));
        System.out.printf("session cluster up in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    @BeforeEach
    void needsCapture() {
        Assumptions.assumeTrue(unavailable == null, "skipped: " + unavailable);
    }

    /** What one job did: its id, the level the controller gave it while it ran, its data segments by DSCP. */
    private record Observed(String jobId, AppView view) {
        int dscp() {
            return view == null ? -1 : 8 * view.level();
        }
    }

    @Test
    @Order(1)
    void theFirstJobAfterAColdStartIsFullyTagged() throws Exception {
        Capture c = capture("cold");
        Observed job = runGated("cold", List.of("-D" + SabaOptions.WORKLOAD.key() + "=lr"));
        Capture.Result r = c.stop();
        System.out.printf("first job: %s; %s%n", job, r);
        printRegistration(job.jobId());
        assertNotNull(job.view(), "the controller registered the cluster's first job");
        assertEquals("lr", job.view().workload());
        assertTrue(job.view().level() >= 1, "a Saba level: " + job.view().level());
        assertTrue(r.dataSegments() > 0, "data crossed the loopback between the TaskManagers");
        long tagged = r.segmentsByDscp().getOrDefault(job.dscp(), 0L);
        assertTrue(tagged >= 0.99 * r.dataSegments(), "≥ 99 % of the first job's data segments carry DSCP "
                + job.dscp() + ": " + tagged + " of " + r.dataSegments() + " " + r.segmentsByDscp());
    }

    @Test
    @Order(2)
    void aJobWithoutAWorkloadGetsASabaLevelAndItsDscp() throws Exception {
        Capture c = capture("unset");
        Observed job = runGated("unset", List.of());
        Capture.Result r = c.stop();
        System.out.printf("job without a workload: %s; %s%n", job, r);
        printRegistration(job.jobId());
        assertNotNull(job.view(), "the controller registered a job without saba.workload");
        assertFalse(job.view().workloadKnown(), "the controller's default model: " + job.view().workload());
        assertTrue(job.view().level() >= 1, "a Saba level, not the default class: " + job.view().level());
        assertEquals(Map.of(job.dscp(), r.dataSegments()), r.segmentsByDscp(),
                "every data segment carries the level's DSCP");
        assertFalse(cluster.jobManagerLog().contains("INTERNAL"), "no controller error in the JobManager's log");
    }

    @Test
    @Order(3)
    void twoConcurrentJobsOneWithoutAWorkloadCarryTheirOwnDscps() throws Exception {
        Capture c = capture("both");
        Path gateA = dir.resolve("gate-with");
        Path gateB = dir.resolve("gate-without");
        // the job without a workload starts first and waits at its gate while the other one starts: its partitions
        // are stamped with its level, which the later workload does not renumber (running workloads keep theirs)
        cluster.awaitAllSlotsFree();
        SessionCluster.Run b = cluster.run(List.of(), jobArgs("without-workload", gateB));
        Observed without = atGate(b, gateB);
        SessionCluster.Run a = cluster.run(List.of("-D" + SabaOptions.WORKLOAD.key() + "=lr"),
                jobArgs("with-workload", gateA));
        Observed withWorkload = atGate(a, gateA);
        without = new Observed(without.jobId(), controller.controller().app(without.jobId()));
        ShuffleJob.FileGate.open(gateA);
        ShuffleJob.FileGate.open(gateB);
        assertCorrect(a.result());
        assertCorrect(b.result());
        Capture.Result r = c.stop();
        System.out.printf("concurrent: %s and %s; %s%n", withWorkload, without, r);
        assertNotNull(withWorkload.view(), "the job with a workload is registered");
        assertNotNull(without.view(), "the job without one is registered");
        assertTrue(withWorkload.view().level() >= 1 && without.view().level() >= 1,
                "both at Saba levels: " + withWorkload.view().level() + ", " + without.view().level());
        assertNotEquals(withWorkload.dscp(), without.dscp(), "lr and the default model are different classes");
        assertEquals(Set.of(withWorkload.dscp(), without.dscp()), r.segmentsByDscp().keySet(),
                "data segments carry exactly the two jobs' DSCPs: " + r.segmentsByDscp());
        r.dscpsBySocket().forEach((socket, dscps) -> assertEquals(1, dscps.size(),
                "socket " + socket + " carries one class, both ways: " + dscps));
    }

    private static String[] jobArgs(String name, Path gate) {
        return new String[] {name, Long.toString(N), Integer.toString(KEYS), Integer.toString(PARALLELISM),
                Integer.toString(PAYLOAD), gate.toString()};
    }

    /** Runs one gated job to its end; the controller's view of it is read while it waits at its gate. */
    private Observed runGated(String name, List<String> options) throws Exception {
        Path gate = dir.resolve("gate-" + name);
        cluster.awaitAllSlotsFree();
        SessionCluster.Run run = cluster.run(options, jobArgs(name, gate));
        Observed o = atGate(run, gate);
        ShuffleJob.FileGate.open(gate);
        assertCorrect(run.result());
        return o;
    }

    /** Waits until every source subtask of the job waits at its gate: its partitions are registered by then. */
    private Observed atGate(SessionCluster.Run run, Path gate) throws Exception {
        String id = run.jobId();
        Controllers.eventually("job " + id + " at its gate", () -> {
            try {
                return ShuffleJob.FileGate.started(gate) == PARALLELISM;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return new Observed(id, controller.controller().app(id));
    }

    private static void assertCorrect(String result) {
        long[] want = ShuffleJob.expected(N, KEYS);
        assertEquals("RESULT " + ShuffleJob.KEYS + "=" + want[0] + " " + ShuffleJob.CHECKSUM + "=" + want[1], result);
    }

    /**
     * For the record: the JobManager's Saba lines about one job (its registration's latency among them), and how long
     * after the JobManager received the job the controller's level arrived (log timestamps).
     */
    private static void printRegistration(String jobId) throws Exception {
        List<String> lines = cluster.jobManagerLog().lines().filter(l -> l.contains(jobId)).toList();
        lines.stream().filter(l -> l.contains("Saba")).forEach(l -> System.out.println("  JobManager: " + l));
        Optional<LocalDateTime> received = lines.stream().filter(l -> l.contains("Received JobGraph submission"))
                .findFirst().map(SessionClusterIT::time);
        Optional<LocalDateTime> level = lines.stream().filter(l -> l.contains("Saba: job " + jobId + " registered"))
                .findFirst().map(SessionClusterIT::time);
        if (received.isPresent() && level.isPresent()) {
            System.out.printf("  job %s: its level arrived %d ms after the JobManager received it%n", jobId,
                    Duration.between(received.get(), level.get()).toMillis());
        }
    }

    private static LocalDateTime time(String logLine) {
        return LocalDateTime.parse(logLine.substring(0, 23), DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS"));
    }

    private Capture capture(String name) throws Exception {
        return new Capture(PacketCapture.start(dir.resolve(name + ".pcap"), from, to));
    }

    /** A capture of the TaskManagers' data ports, reduced to what the cases check. */
    private record Capture(PacketCapture capture) {
        record Result(long segments, long dataSegments, Map<Integer, Long> segmentsByDscp,
                      Map<String, Set<Integer>> dscpsBySocket) {
        }

        Result stop() throws Exception {
            Map<Integer, Long> byDscp = new TreeMap<>();
            Map<String, Set<Integer>> bySocket = new HashMap<>();
            long data = 0;
            List<PacketCapture.Packet> packets = capture.stopAndRead();
            for (PacketCapture.Packet p : packets) {
                if (p.length() == 0) {
                    continue; // handshake and pure ACKs: the handshake precedes tagging
                }
                data++;
                byDscp.merge(p.dscp(), 1L, Long::sum);
                boolean fromServer = p.srcPort() >= from && p.srcPort() <= to;
                String socket = fromServer ? p.srcPort() + "<>" + p.dstPort() : p.dstPort() + "<>" + p.srcPort();
                bySocket.computeIfAbsent(socket, k -> new TreeSet<>()).add(p.dscp());
            }
            return new Result(packets.size(), data, byDscp, bySocket);
        }
    }

    static {
        // fail early and clearly when run outside Maven's failsafe, which points these at the build's jars
        for (String key : new String[] {"saba.flink.jar", "saba.flink.lib"}) {
            if (System.getProperty(key) == null || !Files.exists(Path.of(System.getProperty(key)))) {
                throw new IllegalStateException(key + " is not set to an existing path (failsafe sets it; run "
                        + "through mvn verify)");
            }
        }
    }
}
