package io.saba.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Drift against the table, on hand-computed curves: beyond the estimate's error, for several units in a row. */
class WorkloadEstimatorTest {
    private static final double EPS = 1e-12;
    /** φ = 0.8: D(0.25) = 0.2 + 3.2 = 3.4, D(0.5) = 1.8. */
    private static final SensitivityModel TABLE = SensitivityModel.inverse(0.2, 0.8);

    /** A unit with φ = {@code phi} seen at the full link. */
    private static Observation unit(double phi) {
        return new Observation(1000, Math.round(1000 * phi), 1.0, 1_000_000);
    }

    @Test
    void observationsThatContradictTheTableRaiseTheFlagAfterSeveralUnits() {
        WorkloadEstimator w = new WorkloadEstimator();
        // φ = 0.4: D(0.25) = 2.2 against 3.4 (−35 %), with no spread between units
        for (int i = 1; i < ModelDrift.MIN_UNITS; i++) {
            assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), TABLE), "unit " + i + ": not judged yet");
            assertEquals(0, w.contradicting());
        }
        assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), TABLE), "the first unit judged contradicts");
        assertEquals(1, w.contradicting());
        assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), TABLE));
        assertFalse(w.drifting());
        assertEquals(WorkloadEstimator.Change.DRIFT_STARTED, w.add(unit(0.4), TABLE), "the third in a row");
        assertTrue(w.drifting());
        assertEquals(ModelDrift.MIN_UNITS + WorkloadEstimator.DRIFT_UNITS - 1, w.window().size());
        assertEquals(WorkloadEstimator.DRIFT_UNITS, w.contradicting());
        assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), TABLE), "raised once");

        ModelDrift.Deviation d = w.deviation(TABLE);
        assertEquals(0.25, d.share(), EPS); // 1.2 off against 0.34 allowed; at 50 %: 0.4 against 0.18
        assertEquals(2.2, d.estimated(), EPS);
        assertEquals(3.4, d.table(), EPS);
        assertEquals(-1.2 / 3.4, d.relative(), EPS);
        assertTrue(d.contradicts());
    }

    @Test
    void aJobsSetupIsNotTakenForDrift() {
        // 4 setup units that read nothing over the network (PageRank building its graph), then 28 units with
        // φ = 0.6: the whole job's Φ is 28·0.6/32 = 0.525, and its profile says just that.
        SensitivityModel job = SensitivityModel.inverse(0.475, 0.525);
        WorkloadEstimator w = new WorkloadEstimator();
        for (int i = 0; i < 4; i++) {
            assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0), job));
        }
        // four identical zeros: Φ = 0 and an error of 0, 1.00 against the table's 2.575 at 25 %
        assertEquals(0, w.estimate().standardError(), EPS);
        assertTrue(w.deviation(job).contradicts(), "the setup alone contradicts the job's curve");
        for (int i = 0; i < 28; i++) {
            assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.6), job), "unit " + (5 + i));
            assertEquals(0, w.contradicting(), "unit " + (5 + i) + ": " + w.deviation(job));
        }
        assertEquals(0.525, w.estimate().networkShare(), EPS);
        assertFalse(w.drifting());
    }

    @Test
    void aDeviationWithinTheEstimatesErrorIsNoContradiction() {
        SensitivityModel table = SensitivityModel.inverse(0.4, 0.6); // D(0.25) = 2.8
        List<Observation> units = new ArrayList<>();
        units.add(unit(0.1));
        units.add(unit(0.7));
        // Φ = 0.4: D(0.25) = 2.2, 0.6 off; SE = 0.3 (residuals ±300 ms), so 2 SE at 25 % is 2·3·0.3 = 1.8
        SensitivityEstimate two = SensitivityEstimate.of(units);
        ModelDrift.Deviation at25 = new ModelDrift.Deviation(0.25, two.slowdown(0.25), two.slowdownError(0.25),
                table.slowdown(0.25));
        assertEquals(2.2, at25.estimated(), EPS);
        assertEquals(1.8, at25.allowed(), 1e-9);
        assertFalse(at25.contradicts());
        assertFalse(ModelDrift.worst(two, table).contradicts(), "nor at 50 %: 0.2 off, 0.6 allowed");
        for (int i = 1; i < 32; i++) {
            units.add(unit(0.1));
            units.add(unit(0.7));
        }
        // the same spread over 64 units: SE = sqrt(64/63 · 64·300² / 64000²) ≈ 0.0378, allowed = 10 % of 2.8
        ModelDrift.Deviation many = ModelDrift.worst(SensitivityEstimate.of(units), table);
        assertEquals(0.25, many.share(), EPS);
        assertEquals(0.28, many.allowed(), 1e-9);
        assertTrue(many.contradicts());
    }

    @Test
    void agreementClearsTheFlagAndAWorkloadWithoutTableNeverDrifts() {
        List<Observation> seen = Collections.nCopies(ModelDrift.MIN_UNITS, unit(0.4));
        SensitivityModel matching = SensitivityModel.inverse(0.6, 0.4);
        WorkloadEstimator w = WorkloadEstimator.restore(seen, 3, 0, true);
        assertEquals(0.4, w.estimate().networkShare(), EPS);
        assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), matching));
        assertEquals(WorkloadEstimator.Change.NONE, w.add(unit(0.4), matching));
        assertEquals(WorkloadEstimator.Change.DRIFT_ENDED, w.add(unit(0.4), matching));
        assertFalse(w.drifting());

        WorkloadEstimator unprofiled = new WorkloadEstimator();
        for (int i = 0; i < 10; i++) {
            assertEquals(WorkloadEstimator.Change.NONE, unprofiled.add(unit(0.9), null));
        }
        assertFalse(unprofiled.drifting());
        assertEquals(null, unprofiled.deviation(null));
    }

    @Test
    void theWindowKeepsTheLatestUnits() {
        WorkloadEstimator w = new WorkloadEstimator();
        for (int i = 0; i < WorkloadEstimator.KEEP; i++) {
            w.add(unit(0.0), null);
        }
        for (int i = 0; i < WorkloadEstimator.KEEP; i++) {
            w.add(unit(0.5), null);
        }
        assertEquals(WorkloadEstimator.KEEP, w.window().size());
        assertEquals(0.5, w.estimate().networkShare(), EPS, "the old units have left");
    }
}
