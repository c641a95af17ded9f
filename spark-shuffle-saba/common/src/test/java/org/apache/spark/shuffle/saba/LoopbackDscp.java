package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.process.PacketCapture.Segment;
import io.saba.process.PacketCapture;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    /** Skips the test unless a capture can run here (tcpdump and tshark installed, root). */
    static void assumeCapture() {
        String why = PacketCapture.unavailable();
        Assumptions.assumeTrue(why == null, "SKIP: " + why);
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
    static List<Segment> capture(Path pcap, Runnable job) throws IOException {
        PacketCapture capture = PacketCapture.onLoopback("tcp", pcap);
        List<Segment> all;
        try {
            job.run();
        } finally {
            all = capture.stop();
        }
        return large(all);
    }

    /** The segments with at least {@link #LARGE} bytes of payload. */
    static List<Segment> large(List<Segment> all) {
        return all.stream().filter(s -> s.payload() >= LARGE).toList();
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
}
