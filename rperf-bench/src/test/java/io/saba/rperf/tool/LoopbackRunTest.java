package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real sockets on 127.0.0.1: a server and generators, checked for counts and consistency, not speed. */
class LoopbackRunTest {
    @Test
    void lsgCountsEveryIterationAndReportsBothRtts() throws Exception {
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1)) {
            RunResult r = RperfClient.run(new RperfClient.Options(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
                    List.of(GeneratorSpec.lsg(64, -1)), 0, 20, 300, true, false));
            LatencyResult l = r.latency().get(0);
            assertEquals(300, l.iterations());
            assertNotNull(l.subtracted());
            assertEquals(300, l.subtracted().getTotalCount());
            assertEquals(300, l.loopback().getTotalCount());
            assertTrue(l.endToEnd().getMinValue() > 0);
            // the subtraction can only remove time: T_W - T_L <= T_W - T_P for every sample
            assertTrue(l.subtracted().getMaxValue() <= l.endToEnd().getMaxValue() * 1.001 + 1);
        }
    }

    @Test
    void bsgWindowBytesNeverExceedWhatTheServerReceived() throws Exception {
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1)) {
            RunResult r = RperfClient.run(new RperfClient.Options(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
                    List.of(GeneratorSpec.bsg(4096, -1, 4), GeneratorSpec.lsg(64, -1)), 0.2, 0.8, 0, false, false));
            BandwidthResult b = r.bandwidth().get(0);
            assertEquals(b.clientTotalBytes(), b.serverTotalBytes(), "every byte written was received");
            assertTrue(b.windowBytes() > 0 && b.windowBytes() <= b.serverTotalBytes());
            assertTrue(b.gbps() > 0);
            assertTrue(r.latency().get(0).iterations() > 0, "the LSG ran beside the BSG");
            assertEquals(2, server.connections(), "one BSG connection, one LSG connection");
        }
    }

    @Test
    void csvHasOneRowPerMetric() throws Exception {
        try (RperfServer server = RperfServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1)) {
            RunResult r = RperfClient.run(new RperfClient.Options(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
                    List.of(GeneratorSpec.lsg(64, 184), GeneratorSpec.bsg(1024, 0, 8)), 0, 0.3, 50, true, false));
            List<String> csv = RunReport.csv(r);
            assertEquals(1 + 3 + 1, csv.size(), String.join("\n", csv));
            assertTrue(csv.get(1).startsWith("1,lsg,64,184,rtt_end_to_end,"));
            assertTrue(csv.get(4).startsWith("2,bsg,1024,0,bandwidth,"));
            for (String row : csv) {
                assertEquals(14, row.split(",", -1).length, row);
            }
        }
    }
}
