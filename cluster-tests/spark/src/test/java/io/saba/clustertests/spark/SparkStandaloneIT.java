package io.saba.clustertests.spark;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.clustertests.Ports;
import io.saba.clustertests.RealClusterTest;
import io.saba.clustertests.StandaloneController;
import io.saba.process.PacketCapture.Segment;
import io.saba.process.PacketCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Saba on a Spark standalone cluster started as a user starts one: a master and two workers as separate JVMs, a
 * standalone {@code saba controller}, and {@link GroupCount} submitted with {@code spark-submit} following the
 * README's "Turning Saba on" step, in client and in cluster deploy mode. Each job's result must equal plain
 * Spark's on the same cluster, the controller must show the application under its workload at a Saba level, and
 * the application's data segments (captured on loopback: every connection through its driver's RPC or block port
 * or an executor's block port, all pinned to one block of ports) must carry that level's DSCP. One cluster serves
 * every case. Each Spark generation's module runs these cases on its Spark with its jar (Spark 4's step also lists
 * the plugin in {@code spark.plugins}). Skips, saying why, without tcpdump, tshark or root.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SparkStandaloneIT extends RealClusterTest {
    private static final int N = 100_000;
    private static final int KEYS = 97;
    /** Segments with this much payload or more are the application's bulk data. */
    private static final int LARGE = 1_000;
    /** The driver's RPC and block ports, then the executors' block ports (Spark tries upwards when one is taken). */
    private static final int PORTS = 20;

    private static SparkStandalone spark;
    private static String plainResult;

    @BeforeAll
    static void startSpark() {
        // two cores per worker: in cluster mode the driver takes one, and each worker still runs an executor
        startCluster("Spark standalone cluster", controller -> spark = SparkStandalone.start(daemons, dir, 2, 2));
    }

    @Test
    @Order(1)
    void plainSparkIsTheReference() throws Exception {
        Job job = submit("plain", "client", List.of());
        System.out.printf("plain Spark: %s%n", job);
        assertTrue(job.large() >= 20, "the capture saw the job's data: " + job);
        assertEquals(Map.of(0, job.large()), job.largeByDscp(), "plain Spark sends at DSCP 0");
        plainResult = job.result();
    }

    @Test
    @Order(2)
    void clientDeployModeWithSaba() throws Exception {
        checkWithSaba(submit("client", "client", readmeSteps("lr")), "lr");
    }

    @Test
    @Order(3)
    void clusterDeployModeWithSaba() throws Exception {
        checkWithSaba(submit("cluster", "cluster", readmeSteps("sort")), "sort");
    }

    private static void checkWithSaba(Job job, String workload) {
        System.out.printf("with Saba: %s%n", job);
        JsonNode app = job.registered();
        assertEquals("spark", app.path("framework").asText(), app.toString());
        assertEquals(workload, app.path("workload").asText(), app.toString());
        int level = app.path("level").asInt();
        assertTrue(level >= 1, "a Saba level: " + app);
        assertTrue(job.connections() >= 1, "the application's connections reached the controller: " + job);
        assertTrue(job.large() >= 20, "the capture saw the job's data: " + job);
        long tagged = job.largeByDscp().getOrDefault(8 * level, 0L);
        assertTrue(tagged >= 0.99 * job.large(), "≥ 99 % of the application's large segments carry DSCP "
                + 8 * level + ": " + job.largeByDscp());
        assertEquals(plainResult, job.result(), "the same result as plain Spark");
    }

    /**
     * The README's "Turning Saba on" for Spark: the shaded jar with {@code --jars} and on the driver's and the
     * executors' class path, the shuffle manager, the controller's address and the workload. The class path entries
     * are the jar's absolute path (the same on every node): the bare file name the README first gave resolves against
     * each JVM's working directory, and a standalone worker starts an executor before it fetches {@code --jars}
     * there, so every executor died with {@code ClassNotFoundException: SabaShuffleManager}.
     */
    private static List<String> readmeSteps(String workload) {
        String jar = Path.of(StandaloneController.required("saba.plugin.jar")).toAbsolutePath().toString();
        List<String> steps = new ArrayList<>(List.of("--jars", jar,
                "--conf", "spark.driver.extraClassPath=" + jar,
                "--conf", "spark.executor.extraClassPath=" + jar,
                "--conf", "spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager"));
        // Spark 4's step adds the plugin (Spark 4 starts plugins before the shuffle manager); the module says so
        String plugins = System.getProperty("saba.spark.plugins", "");
        if (!plugins.isEmpty()) {
            steps.addAll(List.of("--conf", "spark.plugins=" + plugins));
        }
        steps.addAll(List.of("--conf", "spark.saba.controller.address=" + controller.address(),
                "--conf", "spark.saba.workload=" + workload));
        return steps;
    }

    /** What one submission did and showed. */
    private record Job(String appId, JsonNode registered, int connections, Map<Integer, Long> largeByDscp,
                       String result) {
        long large() {
            return largeByDscp.values().stream().mapToLong(Long::longValue).sum();
        }

        @Override
        public String toString() {
            return appId + " (" + (registered == null ? "not on the controller" : registered.path("workload")
                    + " at level " + registered.path("level") + ", " + connections + " connections")
                    + "), large segments by DSCP " + largeByDscp;
        }
    }

    /**
     * Submits {@link GroupCount} in {@code mode} with {@code saba} options added, holds it after its warm-up until
     * the controller shows it (with Saba) and its executors have had time to learn its level, captures its shuffle,
     * and lets it end.
     */
    private Job submit(String name, String mode, List<String> saba) throws Exception {
        Path gates = Files.createDirectories(dir.resolve(name + "-gates"));
        Path out = dir.resolve(name + ".out");
        int ports = Ports.freeBlock(PORTS);
        List<String> args = new ArrayList<>(List.of("--master", spark.master(), "--deploy-mode", mode,
                "--class", GroupCount.class.getName(),
                "--conf", "spark.driver.port=" + ports,
                "--conf", "spark.driver.blockManager.port=" + (ports + 1),
                "--conf", "spark.blockManager.port=" + (ports + 2),
                "--conf", "spark.driver.memory=512m",
                "--conf", "spark.executor.memory=512m",
                "--conf", "spark.executor.cores=1",
                "--conf", "spark.cores.max=2",
                "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
                "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
                // executors on one host would read each other's shuffle files from disk, and no byte would cross a socket
                "--conf", "spark.shuffle.readHostLocalDisk=false",
                "--conf", "spark.ui.enabled=false",
                "--conf", "spark.standalone.submit.waitAppCompletion=true"));
        if (mode.equals("cluster")) {
            // Spark 3.5 gives a driver that a standalone worker starts none of the module options Java 17 needs
            // (plain Spark too: IllegalAccessError on sun.nio.ch.DirectBuffer in StorageUtils), as spark-submit's
            // launcher does for a client-mode driver and the SparkContext for executors
            args.addAll(List.of("--conf", "spark.driver.extraJavaOptions="
                    + StandaloneController.required("spark.java17.options")));
        }
        args.addAll(saba);
        args.addAll(List.of(StandaloneController.required("saba.job.jar"), out.toString(), Integer.toString(N),
                Integer.toString(KEYS), gates.toString()));
        Process submit = spark.submit(name, args);
        try {
            return follow(name, !saba.isEmpty(), submit, gates, out, ports);
        } finally {
            // a failed case must not leave its driver holding the cluster's cores for the next one
            submit.descendants().forEach(ProcessHandle::destroyForcibly);
            submit.destroyForcibly();
        }
    }

    /** Takes a submitted job through its gates, looking at the controller and capturing its shuffle on the way. */
    private Job follow(String name, boolean withSaba, Process submit, Path gates, Path out, int ports)
            throws Exception {
        String where = name + " (logs and the workers' work directories: " + dir.resolve("logs") + ")";
        awaitGate(gates.resolve("ready"), submit, where);
        String appId = Files.readString(gates.resolve("ready")).trim();
        JsonNode registered = null;
        if (withSaba) {
            registered = controller.awaitApplication(appId, a -> appId.equals(a.path("app_id").asText()));
            Thread.sleep(3_000); // executors ask their driver for the level every second (spark.saba.level.refresh)
        }
        PacketCapture capture = PacketCapture.onLoopback("tcp portrange " + ports + "-" + (ports + PORTS - 1),
                dir.resolve(name + ".pcap"));
        List<Segment> segments;
        try {
            Files.writeString(gates.resolve("go"), "");
            awaitGate(gates.resolve("done"), submit, where);
        } finally {
            segments = capture.stop();
        }
        int connections = 0;
        if (withSaba) {
            await(appId + "'s connections on the controller").atMost(Duration.ofSeconds(60))
                    .until(() -> controller.application(a -> appId.equals(a.path("app_id").asText()))
                            .map(a -> a.path("connections").asInt()).orElse(0) > 0);
            connections = controller.application(a -> appId.equals(a.path("app_id").asText())).orElseThrow()
                    .path("connections").asInt();
        }
        Files.writeString(gates.resolve("end"), "");
        assertTrue(submit.waitFor(5, TimeUnit.MINUTES), "spark-submit ended: " + where);
        assertEquals(0, submit.exitValue(), "spark-submit's exit status: " + where);
        if (withSaba) {
            await(appId + " deregistered").atMost(Duration.ofMinutes(2))
                    .until(() -> controller.application(a -> appId.equals(a.path("app_id").asText())).isEmpty());
        }
        Map<Integer, Long> largeByDscp = new TreeMap<>();
        segments.stream().filter(s -> s.payload() >= LARGE)
                .forEach(s -> largeByDscp.merge(s.dscp(), 1L, Long::sum));
        return new Job(appId, registered, connections, largeByDscp, Files.readString(out));
    }

    private static void awaitGate(Path gate, Process submit, String where) {
        try {
            await(gate.getFileName() + " from " + where).atMost(Duration.ofMinutes(10)).until(() -> {
                if (!Files.exists(gate) && !submit.isAlive()) {
                    throw new AssertionError("spark-submit exited with status " + submit.exitValue() + " before "
                            + gate.getFileName() + ": " + where);
                }
                return Files.exists(gate);
            });
        } catch (AssertionError | ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n" + daemons.tails(), e);
        }
    }
}
