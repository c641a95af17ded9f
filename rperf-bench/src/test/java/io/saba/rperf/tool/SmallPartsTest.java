package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SmallPartsTest {
    @Test
    void generatorSpecsParse() {
        assertEquals(GeneratorSpec.lsg(64, 184), GeneratorSpec.parse("lsg:dscp=46"));
        assertEquals(GeneratorSpec.bsg(256, 0xb8, 64), GeneratorSpec.parse("bsg:size=256,tos=0xb8,batch=64"));
        assertEquals(GeneratorSpec.bsg(4096, -1, 1), GeneratorSpec.parse("BSG"));
        assertThrows(IllegalArgumentException.class, () -> GeneratorSpec.parse("lsg:dscp=64"));
        assertThrows(IllegalArgumentException.class, () -> GeneratorSpec.parse("lsg:colour=red"));
    }

    @Test
    void perftestLatencyLineHasNineColumnsInMicroseconds() {
        Histogram h = new Histogram(3);
        for (long v = 1000; v <= 100_000; v += 1000) {
            h.recordValue(v);
        }
        String[] cols = PerftestFormat.latencyLine(64, h).trim().split("\\s+");
        assertEquals(9, cols.length);
        assertEquals("64", cols[0]);
        assertEquals("100", cols[1]);
        assertEquals(1.0, Double.parseDouble(cols[2]), 0.01);   // t_min
        assertEquals(100.0, Double.parseDouble(cols[3]), 0.1);  // t_max
        assertEquals(50.0, Double.parseDouble(cols[4]), 0.1);   // t_typical = median
        assertTrue(PerftestFormat.LAT_HEADER.contains("99.9% percentile[usec]"));
    }

    @Test
    void qperfOutputParses() {
        Qperf.Figures f = Qperf.parse("tcp_lat:\n    latency  =  10.8 us\ntcp_bw:\n    bw  =  36.2 MB/sec\n");
        assertEquals(10.8, f.latencyUs(), 1e-9);
        assertEquals(21.6, f.rttUs(), 1e-9);
        assertEquals(0.2896, f.bandwidthGbps(), 1e-9);
        assertEquals(2.0, Qperf.parse("latency = 2 ms\nbw = 1.5 GB/sec").latencyUs() / 1e3, 1e-9);
    }

    @Test
    void rdmaCannotRunWithoutADevice() throws Exception {
        File empty = Files.createTempDirectory("ib").toFile();
        assertTrue(new RdmaProbe(empty).cannotRun().orElseThrow().contains("no RDMA device"));
        assertTrue(new RdmaProbe(new File(empty, "missing")).cannotRun().orElseThrow().contains("no RDMA device"));
    }

    @Test
    void aPresentDeviceIsNamedAndTheMissingGeneratorsAreTheReason() throws Exception {
        File sys = Files.createTempDirectory("ib").toFile();
        assertTrue(new File(sys, "rxe0").mkdir());
        assertTrue(new File(sys, "mlx5_0").mkdir());
        RdmaProbe probe = new RdmaProbe(sys);
        assertEquals(List.of("mlx5_0", "rxe0"), List.of(probe.devices()));
        String why = probe.cannotRun().orElseThrow();
        assertTrue(why.contains("mlx5_0,rxe0 present"), why);
        assertTrue(why.contains("no RDMA generators"), why);
        // the client library does bind librdmacm through JNA, so "not bundled" would be untrue
        assertFalse(why.contains("not bundled") || why.contains("DiSNI"), why);
    }
}
