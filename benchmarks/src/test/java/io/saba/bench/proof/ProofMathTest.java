package io.saba.bench.proof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProofMathTest {
    @Test
    void jainIndexSeparatesRoughlyEqualFromOneFlowTakingAll() {
        assertEquals(1.0, TestbedProof.jain(new double[] {0.3, 0.3, 0.3}), 1e-12);
        assertTrue(TestbedProof.jain(new double[] {0.19, 0.36, 0.30}) >= TestbedProof.MIN_FAIRNESS);
        assertTrue(TestbedProof.jain(new double[] {0.07, 0.08, 0.79}) < 0.5, "the BBR-in-a-FIFO case");
    }

    @Test
    void goodputOverAWindowAndItsMedian() throws Exception {
        String json = """
                {"intervals": [
                  {"sum": {"start": 0, "end": 0.5, "bytes": 1000}},
                  {"sum": {"start": 0.5, "end": 1.0, "bytes": 6250000}},
                  {"sum": {"start": 1.0, "end": 1.5, "bytes": 625000}},
                  {"sum": {"start": 1.5, "end": 2.0, "bytes": 6250000}}]}""";
        Goodput g = Goodput.parseIperfServerJson(json);
        assertEquals(4, g.intervals().size());
        // Window [0.5, 2.0): (6.25 + 0.625 + 6.25) MB in 1.5 s.
        assertEquals(13_125_000 * 8 / 1.5, g.bitsPerSecond(0.5, 2.0), 1);
        // The one slow interval (a descheduled sender) does not move the median.
        assertEquals(100_000_000, g.medianBitsPerSecond(0.5, 2.0), 1);
        assertEquals(List.of(), Goodput.parseIperfServerJson("{\"intervals\": []}").intervals());
    }
}
