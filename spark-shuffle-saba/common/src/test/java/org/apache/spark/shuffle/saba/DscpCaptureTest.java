package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import io.saba.process.PacketCapture;
import io.saba.wire.DscpMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the wire: two concurrent applications (this JVM's, workload "lr", and {@link SecondApp}'s, workload "wc"),
 * each with two real executors, run a shuffle job and then an iterative MLlib job (logistic regression: broadcasts
 * and task results, no shuffle) while tcpdump captures loopback. Every large TCP segment of an application (any
 * connection through its driver's RPC or block-transfer port or an executor's block-transfer port; local-cluster's
 * master and workers live in the driver JVM but have ports of their own) must carry that application's DSCP, the
 * two DSCPs differing, and the controller must see the driver's RPC and broadcast connections as the
 * application's. Skips (saying why) without tcpdump/tshark or capture rights.
 */
@Timeout(900)
class DscpCaptureTest {
    @TempDir
    Path dir;

    @Test
    void everyLargePacketOfEachApplicationCarriesItsDscp() throws Exception {
        LoopbackDscp.assumeCapture();
        try (EmbeddedController controller = Fixtures.controller()) {
            List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx512m"));
            cmd.addAll(Arrays.asList(LocalCluster.MODULE_OPTIONS.split(" ")));
            // the second application turns Saba on as this Spark version's users do, as this JVM does
            cmd.add("-D" + LocalCluster.USER_PLUGINS_PROPERTY + "=" + LocalCluster.USER_PLUGINS);
            cmd.addAll(List.of("-cp", LocalCluster.classPath(), SecondApp.class.getName(), dir.toString(),
                    controller.target(), "wc"));
            Process second = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("second.log").toFile()).start();
            try (JavaSparkContext jsc = new JavaSparkContext(
                    LocalCluster.withSaba(LocalCluster.conf("first"), controller.target(), "lr"))) {
                String firstId = jsc.sc().applicationId();
                List<Integer> firstPorts = LoopbackDscp.ports(SecondApp.applicationPorts(jsc));
                await("second application ready").atMost(Duration.ofMinutes(5))
                        .until(() -> Files.exists(dir.resolve("ready")) || !second.isAlive());
                assertTrue(second.isAlive(), "second application died: see " + dir.resolve("second.log"));
                List<Integer> secondPorts = LoopbackDscp.ports(Files.readString(dir.resolve("ready")));
                String secondId = Files.readString(dir.resolve("appid"));

                // both registered, with different levels; then give executors time to pick them up
                await("two levels").atMost(Duration.ofSeconds(60))
                        .until(() -> {
                    AppView a = Fixtures.app(controller, firstId);
                    AppView b = Fixtures.app(controller, secondId);
                    return a != null && b != null && a.level() != b.level();
                });
                Thread.sleep(3_000);
                DscpMap map = DscpMap.classSelectors();
                int firstDscp = map.dscp(Fixtures.app(controller, firstId).level());
                int secondDscp = map.dscp(Fixtures.app(controller, secondId).level());
                assertNotEquals(firstDscp, secondDscp);
                System.out.printf("levels: %s (lr) → DSCP %d, ports %s; %s (wc) → DSCP %d, ports %s%n", firstId,
                        firstDscp, firstPorts, secondId, secondDscp, secondPorts);

                Map<Integer, Long> shuffled = phase("shuffle", second, () -> LocalCluster.job(jsc, 60_000, 97),
                        firstPorts, firstDscp, secondPorts, secondDscp);
                assertEquals(97, shuffled.size());
                List<Double> weights = phase("lr", second,
                        () -> IterativeJob.logisticRegression(jsc, SecondApp.FEATURES, SecondApp.ITERATIONS),
                        firstPorts, firstDscp, secondPorts, secondDscp);
                assertEquals(SecondApp.FEATURES, weights.size());

                // broadcast and result traffic reaches the controller as the application's connections
                int rpc = firstPorts.get(0);
                int blocks = firstPorts.get(1);
                AppView v = Fixtures.app(controller, firstId);
                System.out.println("controller sees " + v.connections() + " connections of " + firstId + ": "
                        + v.open());
                assertTrue(v.open().stream().anyMatch(k -> k.srcPort() == rpc), "driver → executor RPC");
                assertTrue(v.open().stream().anyMatch(k -> k.dstPort() == rpc), "executor → driver RPC");
                assertTrue(v.open().stream().anyMatch(k -> k.srcPort() == blocks), "driver's broadcast blocks");
            } finally {
                Files.writeString(dir.resolve("stop"), "");
                if (!second.waitFor(120, TimeUnit.SECONDS)) {
                    second.destroyForcibly();
                }
            }
        }
    }

    /**
     * Runs {@code job} here and the same phase in the second application under one capture, checks both results
     * agree, then checks each application's large segments.
     */
    private <T> T phase(String name, Process second, Supplier<T> job, List<Integer> firstPorts, int firstDscp,
                        List<Integer> secondPorts, int secondDscp) throws Exception {
        Path pcap = dir.resolve(name + ".pcap");
        PacketCapture capture = PacketCapture.onLoopback("tcp", pcap);
        List<PacketCapture.Segment> all;
        T result;
        try {
            Files.writeString(dir.resolve("go-" + name), "");
            result = job.get();
            await("second application's " + name + " job").atMost(Duration.ofMinutes(5))
                    .until(() -> Files.exists(dir.resolve("done-" + name)) || !second.isAlive());
            assertEquals(Integer.toString(result.hashCode()), Files.readString(dir.resolve("done-" + name)),
                    "same " + name + " job, same result in both applications");
        } finally {
            all = capture.stop();
        }
        List<PacketCapture.Segment> segments = LoopbackDscp.large(all);
        LoopbackDscp.assertTagged(name, "first application (lr)", segments, firstPorts, firstDscp);
        LoopbackDscp.assertTagged(name, "second application (wc)", segments, secondPorts, secondDscp);
        return result;
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
