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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the wire: two concurrent applications (this JVM's, workload "lr", and {@link SecondApp}'s, workload "wc")
 * each with two real executors; tcpdump on all interfaces captures their shuffle traffic, and every TCP segment
 * carrying data out of an executor's block-transfer port must carry its application's DSCP, the two DSCPs
 * differing. Skips (saying why) without tcpdump/tshark or capture rights.
 */
@Timeout(900)
class DscpCaptureTest {
    @TempDir
    Path dir;

    @Test
    void shuffleDataCarriesEachApplicationsDscp() throws Exception {
        assumeTool("tcpdump", "--version");
        assumeTool("tshark", "--version");
        try (EmbeddedController controller = Fixtures.controller()) {
            List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx512m"));
            cmd.addAll(Arrays.asList(LocalCluster.MODULE_OPTIONS.split(" ")));
            cmd.addAll(List.of("-cp", LocalCluster.classPath(), SecondApp.class.getName(), dir.toString(),
                    controller.target(), "wc"));
            Process second = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("second.log").toFile()).start();
            try (JavaSparkContext jsc = new JavaSparkContext(
                    LocalCluster.withSaba(LocalCluster.conf("first"), controller.target(), "lr"))) {
                String firstId = jsc.sc().applicationId();
                List<Integer> firstPorts = ports(SecondApp.executorPorts(jsc));
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
                System.out.printf("levels: %s (lr) → DSCP %d, %s (wc) → DSCP %d%n", firstId, firstDscp, secondId,
                        secondDscp);

                Path pcap = dir.resolve("shuffle.pcap");
                Process dump = startCapture(pcap, firstPorts, secondPorts);
                try {
                    Files.writeString(dir.resolve("go"), "");
                    Map<Integer, Long> r = LocalCluster.job(jsc, 60_000, 97);
                    assertEquals(97, r.size());
                    Fixtures.await("second application's job", Duration.ofMinutes(5),
                            () -> Files.exists(dir.resolve("done")) || !second.isAlive());
                    assertEquals(Integer.toString(r.hashCode()), Files.readString(dir.resolve("done")),
                            "same job, same result in both applications");
                } finally {
                    Thread.sleep(500);
                    dump.destroy();
                    dump.waitFor(30, TimeUnit.SECONDS);
                    Files.writeString(dir.resolve("stop"), "");
                }
                Map<Integer, Map<Integer, Integer>> seen = dscpBySourcePort(pcap);
                System.out.println("data segments by executor port → {DSCP=count}: " + seen);
                assertOnly(seen, firstPorts, firstDscp, "first application (lr)");
                assertOnly(seen, secondPorts, secondDscp, "second application (wc)");
                assertNotEquals(firstDscp, secondDscp);
            } finally {
                Files.writeString(dir.resolve("stop"), "");
                if (!second.waitFor(120, TimeUnit.SECONDS)) {
                    second.destroyForcibly();
                }
            }
        }
    }

    private static void assertOnly(Map<Integer, Map<Integer, Integer>> seen, List<Integer> ports, int dscp,
                                   String who) {
        int packets = 0;
        for (int p : ports) {
            Map<Integer, Integer> byDscp = seen.getOrDefault(p, Map.of());
            assertTrue(byDscp.keySet().stream().allMatch(d -> d == dscp),
                    who + ": port " + p + " sent data with DSCPs " + byDscp + ", expected only " + dscp);
            packets += byDscp.values().stream().mapToInt(Integer::intValue).sum();
        }
        assertTrue(packets > 0, who + ": no shuffle data captured from its executors " + ports);
    }

    private static Process startCapture(Path pcap, List<Integer> a, List<Integer> b) throws Exception {
        String filter = "tcp and (" + java.util.stream.Stream.concat(a.stream(), b.stream())
                .map(p -> "src port " + p).collect(Collectors.joining(" or ")) + ")";
        Path log = pcap.resolveSibling("tcpdump.log");
        Process p = new ProcessBuilder("tcpdump", "-i", "any", "-U", "-s", "128", "-w", pcap.toString(), filter)
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

    /** tshark: source port → DSCP → number of TCP segments with payload. */
    private static Map<Integer, Map<Integer, Integer>> dscpBySourcePort(Path pcap) throws Exception {
        Process t = new ProcessBuilder("tshark", "-r", pcap.toString(), "-Y", "tcp.len > 0", "-T", "fields",
                "-e", "tcp.srcport", "-e", "ip.dsfield.dscp").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        t.waitFor(60, TimeUnit.SECONDS);
        Map<Integer, Map<Integer, Integer>> m = new TreeMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\t");
            if (f.length == 2 && !f[1].isEmpty()) {
                m.computeIfAbsent(Integer.parseInt(f[0]), k -> new TreeMap<>())
                        .merge(Integer.decode(f[1]), 1, Integer::sum);
            }
        }
        return m;
    }

    private static List<Integer> ports(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String s : csv.trim().split(",")) {
            if (!s.isBlank()) {
                out.add(Integer.parseInt(s.trim()));
            }
        }
        assertEquals(2, out.size(), "two executors: " + csv);
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
