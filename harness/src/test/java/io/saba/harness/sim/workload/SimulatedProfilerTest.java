package io.saba.harness.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.Sample;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.network.Networks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatedProfilerTest {
    private final io.saba.harness.sim.network.FlowNetwork testbed = Networks.testbed();
    private final Map<String, WorkloadSpec> specs = HibenchCatalog.specs(testbed.hostLinkRate());
    private final SimulatedProfiler profiler = new SimulatedProfiler(testbed, 3);

    private Map<Double, Double> points(String w) {
        Map<Double, Double> m = new HashMap<>();
        for (Sample s : profiler.samples(specs.get(w), 1.0)) {
            m.put(s.bandwidthPercent(), s.slowdown());
        }
        return m;
    }

    @Test
    void simulatedProfilingReproducesThePapersSensitivityPoints() {
        Map<Double, Double> lr = points("lr");
        assertEquals(1.3, lr.get(75.0), 0.05);
        assertEquals(3.4, lr.get(25.0), 0.05);
        Map<Double, Double> sql = points("sql");
        assertEquals(1.0, sql.get(75.0), 0.05);
        assertEquals(1.2, sql.get(25.0), 0.05);
        assertEquals(2.2, sql.get(10.0), 0.05);
        assertEquals(1.4, points("pagerank").get(25.0), 0.05);
        assertEquals(1.1, points("sort").get(25.0), 0.05);
        assertEquals(1.0, points("wordcount").get(75.0), 0.05);
    }

    @Test
    void rankingAndMeanAtQuarterBandwidthMatchThePaper() {
        double sum = 0;
        Map<String, Double> at25 = new HashMap<>();
        for (String w : specs.keySet()) {
            double d = points(w).get(25.0);
            at25.put(w, d);
            sum += d;
        }
        assertEquals(2.1, sum / specs.size(), 0.05);
        List<String> order = List.of("rf", "lr", "gbt", "svm", "nutchindexing", "nweight", "pagerank", "sql", "wordcount", "sort");
        for (int i = 0; i + 1 < order.size(); i++) {
            assertTrue(at25.get(order.get(i)) >= at25.get(order.get(i + 1)), order.get(i) + " vs " + order.get(i + 1));
        }
    }

    @Test
    void simulatedSlowdownsEqualTheCalibrationFormula() {
        for (WorkloadCalibration c : HibenchCatalog.calibrations()) {
            for (Sample s : profiler.samples(specs.get(c.name()), 1.0)) {
                assertEquals(c.expectedSlowdown(s.bandwidthFraction()), s.slowdown(), 1e-6, c.name() + " " + s);
            }
        }
    }

    @Test
    void theTableUsesTheCoreFormatAndFitter() {
        SensitivityTable t = profiler.profile(specs.values());
        assertEquals(10, t.entries().size());
        assertEquals(3, t.find("lr").orElseThrow().model().degree());
        assertTrue(t.find("sql").orElseThrow().r2() > 0.8);
    }

    @Test
    void eachWorkloadsTrafficRecordShowsItsLinkBusyForItsShuffleShare() {
        // alone at full rate a stage's shuffle holds the NIC for s of the stage's time, whatever the overlap
        SensitivityTable t = profiler.profile(specs.values());
        for (WorkloadCalibration c : HibenchCatalog.calibrations()) {
            var record = t.find(c.name()).orElseThrow().traffic();
            assertEquals(SimulatedProfiler.RECORD_INTERVALS, record.utilisation().length, 1, c.name());
            assertEquals(c.shuffleShare(), record.meanUtilisation(), 0.01, c.name());
        }
        // LR: ten rounds of compute (20 %) then shuffle (80 %): ten bursts at the full link
        double[] lr = t.find("lr").orElseThrow().traffic().utilisation();
        int bursts = 0;
        for (int i = 1; i < lr.length; i++) {
            bursts += lr[i] > 0.99 && lr[i - 1] < 0.5 ? 1 : 0;
        }
        assertEquals(10, bursts);
    }
}
