package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.DscpMap;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Assumptions;
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
    /** Segments with at least this much payload count as the application's bulk traffic. */
    private static final int LARGE = 1_000;
    private static final double REQUIRED = 0.99;

    @TempDir
    Path dir;

    @Test
    void everyLargePacketOfEachApplicationCarriesItsDscp() throws Exception {
        assumeTool("tcpdump", "--version");
        assumeTool("tshark", "--version");
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
                List<Integer> firstPorts = ports(SecondApp.applicationPorts(jsc));
                Fixtures.await("second application ready", Duration.ofMinutes(5),
                        () -> Files.exists(dir.resolve("ready")) || !second.isAlive());
                assertTrue(second.isAlive(), "second application died: see " + dir.resolve("second.log"));
                List<Integer> secondPorts = ports(Files.readString(dir.resolve("ready")));
                String secondId = Files.readString(dir.resolve("appid"));

                // both registered, with different levels; then give executors time to pick them up
                Fixtures.await("two levels", Duration.ofSeconds(60), () -> {
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
        Process dump = startCapture(pcap);
        T result;
        try {
            Files.writeString(dir.resolve("go-" + name), "");
            result = job.get();
            Fixtures.await("second application's " + name + " job", Duration.ofMinutes(5),
                    () -> Files.exists(dir.resolve("done-" + name)) || !second.isAlive());
            assertEquals(Integer.toString(result.hashCode()), Files.readString(dir.resolve("done-" + name)),
                    "same " + name + " job, same result in both applications");
        } finally {
            Thread.sleep(500);
            dump.destroy();
            dump.waitFor(30, TimeUnit.SECONDS);
        }
        List<Segment> segments = largeSegments(pcap);
        assertTagged(name, "first application (lr)", segments, firstPorts, firstDscp);
        assertTagged(name, "second application (wc)", segments, secondPorts, secondDscp);
        return result;
    }

    private record Segment(int srcPort, int dstPort, int dscp) {
    }

    private static void assertTagged(String phase, String who, List<Segment> all, List<Integer> appPorts,
                                     int dscp) {
        Set<Integer> ports = Set.copyOf(appPorts);
        List<Segment> mine = all.stream().filter(s -> ports.contains(s.srcPort()) || ports.contains(s.dstPort()))
                .toList();
        long tagged = mine.stream().filter(s -> s.dscp() == dscp).count();
        Map<String, Long> untagged = mine.stream().filter(s -> s.dscp() != dscp).collect(Collectors.groupingBy(
                s -> s.srcPort() + "→" + s.dstPort() + " DSCP " + s.dscp(), TreeMap::new, Collectors.counting()));
        System.out.printf("%s, %s: %d of %d segments ≥ %d B carry DSCP %d; others by flow: %s%n", phase, who, tagged,
                mine.size(), LARGE, dscp, untagged);
        assertTrue(mine.size() >= 20, phase + ", " + who + ": only " + mine.size() + " large segments captured");
        assertTrue(tagged >= REQUIRED * mine.size(), phase + ", " + who + ": " + tagged + " of " + mine.size()
                + " large segments carry DSCP " + dscp + "; untagged by flow: " + untagged);
    }

    private static Process startCapture(Path pcap) throws Exception {
        Path log = pcap.resolveSibling(pcap.getFileName() + ".log");
        // --immediate-mode: libpcap's ring otherwise hands packets over a block at a time, losing a last burst
        Process p = new ProcessBuilder("tcpdump", "-i", "lo", "--immediate-mode", "-U", "-s", "96", "-w",
                pcap.toString(), "tcp")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            String out = Files.exists(log) ? Files.readString(log) : "";
            if (out.contains("listening on")) {
                return p;
            }
            if (!p.isAlive()) {
                Assumptions.abort("tcpdump cannot capture here (needs root or CAP_NET_RAW): " + out.trim());
            }
            Thread.sleep(100);
        }
        p.destroy();
        Assumptions.abort("tcpdump did not start within 30 s");
        return p;
    }

    /** tshark: every TCP segment with at least {@link #LARGE} bytes of payload. */
    private static List<Segment> largeSegments(Path pcap) throws Exception {
        Process t = new ProcessBuilder("tshark", "-r", pcap.toString(), "-Y", "tcp.len >= " + LARGE, "-T", "fields",
                "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "ip.dsfield.dscp")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        t.waitFor(60, TimeUnit.SECONDS);
        List<Segment> segments = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\t");
            if (f.length == 3 && !f[2].isEmpty()) {
                segments.add(new Segment(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.decode(f[2])));
            }
        }
        return segments;
    }

    private static List<Integer> ports(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.trim().split(",")) {
            if (!s.isBlank()) {
                out.add(Integer.parseInt(s.trim()));
            }
        }
        assertEquals(4, out.size(), "driver RPC, driver blocks, two executors: " + csv);
        return out;
    }

    private static void assumeTool(String tool, String arg) {
        try {
            Process p = new ProcessBuilder(tool, arg).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            Assumptions.abort(tool + " is not installed (apt-get install -y tcpdump tshark): " + e);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
