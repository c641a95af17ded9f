package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * What the packet-capture tests share: tcpdump on loopback, tshark reading back every large segment's ports and
 * DSCP, and the check that an application's segments carry its DSCP. Skips (saying why) without the tools or the
 * right to capture.
 */
final class LoopbackDscp {
    /** Segments with at least this much payload count as the application's bulk traffic. */
    static final int LARGE = 1_000;
    private static final double REQUIRED = 0.99;

    private LoopbackDscp() {
    }

    /** Skips the test unless tcpdump and tshark are installed. */
    static void assumeTools() {
        assumeTool("tcpdump", "--version");
        assumeTool("tshark", "--version");
    }

    record Segment(int srcPort, int dstPort, int dscp) {
    }

    static void assertTagged(String phase, String who, List<Segment> all, List<Integer> appPorts, int dscp) {
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

    /** Runs {@code job} under a capture of loopback into {@code pcap}; returns its large segments. */
    static List<Segment> capture(Path pcap, Runnable job) throws Exception {
        Process dump = startCapture(pcap);
        try {
            job.run();
        } finally {
            Thread.sleep(500); // the last segments reach the file
            dump.destroy();
            dump.waitFor(30, TimeUnit.SECONDS);
        }
        return largeSegments(pcap);
    }

    static Process startCapture(Path pcap) throws Exception {
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
    static List<Segment> largeSegments(Path pcap) throws Exception {
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

    /** The ports {@link SecondApp#applicationPorts} publishes. */
    static List<Integer> ports(String csv) {
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
}
