package io.saba.controller.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.Observation;
import io.saba.core.estimate.ObservedRun;
import io.saba.core.estimate.WorkloadEstimator;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which model is put in force under each mode, and when it changes. */
class LearnedModelsTest {
    private static final double EPS = 1e-12;
    /** lr: D(0.25) = 5 − 2 + 0.25 = 3.25; wc: D(0.25) = 1.15. Default (their mean): D(0.25) = 2.2. */
    private static final ModelCatalog TABLE = new ModelCatalog(Map.of("lr", SensitivityModel.of(5, -8, 4),
            "wc", SensitivityModel.of(1.2, -0.2)));

    /** φ = {@code phi} at the full link. */
    private static Observation unit(double phi) {
        return new Observation(1000, Math.round(1000 * phi), 1.0, 0);
    }

    @Test
    void anUnprofiledWorkloadStartsFromTheDefaultAndConvergesToItsOwnCurve() {
        LearnedModels l = new LearnedModels(SensitivityMode.BLENDED);
        assertEquals(2.2, TABLE.defaultModel().slowdown(0.25), EPS);
        assertEquals(ModelSource.DEFAULT, l.sourceOf("etl", TABLE));
        assertEquals(TABLE.defaultModel(), l.modelOf("etl", TABLE));

        LearnedModels.Outcome first = l.observe("ETL", "app-1", unit(0.5), TABLE); // φ = 0.5: D(0.25) = 2.5
        assertEquals(Set.of("etl"), first.modelsChanged());
        assertEquals(ModelSource.BLENDED, l.sourceOf("etl", TABLE));
        // the default model worth one unit against one unit
        assertEquals((2.2 + 2.5) / 2, l.modelOf("etl", TABLE).slowdown(0.25), EPS);
        for (int i = 1; i < WorkloadEstimator.KEEP; i++) {
            l.observe("etl", "app-1", unit(0.5), TABLE);
        }
        // one against 64: within 1 % of its own curve
        double converged = l.modelOf("etl", TABLE).slowdown(0.25);
        assertTrue(Math.abs(converged - 2.5) / 2.5 < 0.01, converged + " against 2.5");
    }

    @Test
    void aSmallMoveOfTheEstimateChangesNothing() {
        LearnedModels l = new LearnedModels(SensitivityMode.BLENDED);
        for (int i = 0; i < WorkloadEstimator.KEEP; i++) {
            l.observe("etl", "app-1", unit(0.5), TABLE);
        }
        SensitivityModel inForce = l.modelOf("etl", TABLE);
        LearnedModels.Outcome o = l.observe("etl", "app-1", unit(0.6), TABLE);
        assertTrue(o.modelsChanged().isEmpty(), "a candidate within 5 % of the model in force is not put in force");
        assertEquals(inForce, l.modelOf("etl", TABLE));
        assertNotEquals(inForce, o.estimate().blendedWith(TABLE.defaultModel(), 1));
        for (int i = 0; i < 32; i++) {
            l.observe("etl", "app-1", unit(0.9), TABLE);
        }
        assertTrue(l.modelOf("etl", TABLE).slowdown(0.25) > inForce.slowdown(0.25) * 1.05, "a larger one is");
    }

    @Test
    void theTableIsAPriorWorthEightUnits() {
        LearnedModels l = new LearnedModels(SensitivityMode.BLENDED);
        l.observe("lr", "app-1", unit(0.4), TABLE);
        l.observe("lr", "app-1", unit(0.4), TABLE);
        // φ = 0.4: D(0.25) = 2.2, two units against eight: 0.8·3.25 + 0.2·2.2
        assertEquals(0.8 * 3.25 + 0.2 * 2.2, l.modelOf("lr", TABLE).slowdown(0.25), EPS);
        assertEquals(ModelSource.BLENDED, l.sourceOf("lr", TABLE));

        // a new table: the blend's prior changes with it
        ModelCatalog reloaded = new ModelCatalog(Map.of("lr", SensitivityModel.of(3, -4, 2)));
        assertEquals(Set.of("lr"), l.reconsiderAll(TABLE, reloaded));
        assertEquals(0.8 * reloaded.modelOf("lr").slowdown(0.25) + 0.2 * 2.2,
                l.modelOf("lr", reloaded).slowdown(0.25), EPS);
    }

    @Test
    void onlineTakesTheEstimateAloneOnceItRestsOnThreeUnits() {
        LearnedModels l = new LearnedModels(SensitivityMode.ONLINE);
        assertTrue(l.observe("lr", "app-1", unit(0.4), TABLE).modelsChanged().isEmpty());
        assertTrue(l.observe("lr", "app-1", unit(0.4), TABLE).modelsChanged().isEmpty());
        assertEquals(ModelSource.PROFILED, l.sourceOf("lr", TABLE));
        assertEquals(TABLE.modelOf("lr"), l.modelOf("lr", TABLE));
        assertEquals(Set.of("lr"), l.observe("lr", "app-1", unit(0.4), TABLE).modelsChanged());
        assertEquals(ModelSource.ESTIMATED, l.sourceOf("lr", TABLE));
        assertEquals(2.2, l.modelOf("lr", TABLE).slowdown(0.25), 1e-9);
    }

    @Test
    void underTableTheEstimateAndDriftOnlyShow() {
        LearnedModels l = new LearnedModels(SensitivityMode.TABLE);
        WorkloadEstimator.Change raised = WorkloadEstimator.Change.NONE;
        for (int i = 0; i < ModelDrift.MIN_UNITS + WorkloadEstimator.DRIFT_UNITS - 1; i++) {
            LearnedModels.Outcome o = l.observe("lr", "app-1", unit(0.1), TABLE); // D(0.25) = 1.3 against 3.25
            assertTrue(o.modelsChanged().isEmpty());
            raised = o.drift();
        }
        assertEquals(WorkloadEstimator.Change.DRIFT_STARTED, raised, "the tenth unit: judged from the eighth, three contradictions in a row");
        assertEquals(TABLE.modelOf("lr"), l.modelOf("lr", TABLE));
        WorkloadEstimateView v = l.views(TABLE).get("lr");
        assertEquals(ModelSource.PROFILED, v.source());
        assertEquals(0.1, v.estimate().networkShare(), EPS);
        assertTrue(v.drifting());
        assertEquals((1.3 - 3.25) / 3.25, v.deviation().relative(), 1e-9);
        assertEquals(TABLE.modelOf("lr"), v.table());
    }

    @Test
    void aSnapshotRebuildsTheSameModels() {
        LearnedModels l = new LearnedModels(SensitivityMode.BLENDED);
        for (int i = 0; i < 10; i++) {
            l.observe("lr", "app-1", unit(0.1), TABLE);
            l.observe("etl", "app-1", unit(0.3 + 0.01 * i), TABLE);
        }
        LearnedModels copy = new LearnedModels(SensitivityMode.BLENDED);
        Set<String> changed = copy.restore(l.snapshot(), TABLE);
        assertEquals(Set.of("lr", "etl"), changed);
        assertEquals(l.views(TABLE), copy.views(TABLE));
        assertEquals(l.snapshot(), copy.snapshot());
        // both go on alike
        assertEquals(l.observe("etl", "app-1", unit(0.8), TABLE).modelsChanged(),
                copy.observe("etl", "app-1", unit(0.8), TABLE).modelsChanged());
        assertEquals(l.modelOf("etl", TABLE), copy.modelOf("etl", TABLE));

        // restored under another mode, the snapshot's models give way to that mode's
        LearnedModels online = new LearnedModels(SensitivityMode.ONLINE);
        online.restore(l.snapshot(), TABLE);
        assertEquals(ModelSource.ESTIMATED, online.sourceOf("lr", TABLE));
        assertEquals(1.3, online.modelOf("lr", TABLE).slowdown(0.25), 1e-9);
    }

    @Test
    void aWorkloadNothingInformsIsAllocatedAsTheMeanOfTheModelsInForce() {
        ModelCatalog none = ModelCatalog.empty();
        LearnedModels l = new LearnedModels(SensitivityMode.ONLINE);
        assertEquals(SensitivityModel.flat(), l.modelOf("etl", none), "nothing learnt yet: insensitive");
        for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
            l.observe("lr", "app-1", unit(0.4), none); // D(0.25) = 2.2
        }
        assertEquals(2.2, l.modelOf("etl", none).slowdown(0.25), 1e-9, "the one learnt model");
        for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
            l.observe("sort", "app-2", unit(0.1), none); // D(0.25) = 1.3
        }
        assertEquals((2.2 + 1.3) / 2, l.modelOf("etl", none).slowdown(0.25), 1e-9);
        assertEquals(ModelSource.DEFAULT, l.sourceOf("etl", none), "still the default, only a better one");

        // with a table, its models count too: lr's learnt one in place of its profiled one, wc's profiled one
        LearnedModels withTable = new LearnedModels(SensitivityMode.ONLINE);
        for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
            withTable.observe("lr", "app-1", unit(0.1), TABLE);
        }
        assertEquals((1.3 + 1.15) / 2, withTable.modelOf("etl", TABLE).slowdown(0.25), 1e-9);

        // under table, what the units say moves no model, the default included
        LearnedModels table = new LearnedModels(SensitivityMode.TABLE);
        for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
            table.observe("lr", "app-1", unit(0.4), none);
        }
        assertEquals(SensitivityModel.flat(), table.modelOf("etl", none));
    }

    @Test
    void aSnapshotRestoresTheSameDefaultModel() {
        LearnedModels l = new LearnedModels(SensitivityMode.ONLINE);
        for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
            l.observe("lr", "app-1", unit(0.4), TABLE);
            l.observe("etl", "app-2", unit(0.2), TABLE);
        }
        LearnedModels copy = new LearnedModels(SensitivityMode.ONLINE);
        copy.restore(l.snapshot(), TABLE);
        assertEquals(l.defaultModel(TABLE), copy.defaultModel(TABLE));
        assertEquals(l.modelOf("new", TABLE), copy.modelOf("new", TABLE));
        assertNotEquals(TABLE.defaultModel(), copy.modelOf("new", TABLE), "the learnt models moved the default");
    }

    @Test
    void theLeastRecentlyObservedWorkloadIsForgottenFirst() {
        LearnedModels l = new LearnedModels(SensitivityMode.BLENDED);
        l.observe("w0", "app-1", unit(0.5), TABLE);
        for (int i = 1; i < LearnedModels.MAX_WORKLOADS; i++) {
            l.observe("w" + i, "app-1", unit(0.5), TABLE);
        }
        l.observe("w0", "app-1", unit(0.5), TABLE); // now w1 is the least recently observed
        LearnedModels.Outcome o = l.observe("new", "app-1", unit(0.5), TABLE);
        assertEquals(Set.of("w1", "new"), o.modelsChanged(), "w1 falls back to the default model");
        assertEquals(ModelSource.DEFAULT, l.sourceOf("w1", TABLE));
        assertFalse(l.views(TABLE).containsKey("w1"));
        assertEquals(ModelSource.BLENDED, l.sourceOf("w0", TABLE));
    }

    /** {@code seconds} at the full link, its busiest link busy for {@code phi} of them at 20 Mbit/s. */
    private static Observation linkUnit(double seconds, double phi) {
        return Observation.ofLinkBytes(Math.round(seconds * 1000), Math.round(phi * seconds * 20e6 / 8), 20e6, 1.0,
                0);
    }

    @Test
    void anUnprofiledWorkloadsCorunProfileIsItsMostCompleteRunRebuiltAsItDoubles() {
        LearnedModels l = new LearnedModels(SensitivityMode.ONLINE);
        Observation u = linkUnit(10, 0.4);
        l.observe("etl", "app-1", u, TABLE);
        l.observe("etl", "app-1", u, TABLE);
        assertNull(l.profileOf("etl", TABLE), "no profile before a model is in force");
        assertEquals(Set.of("etl"), l.observe("etl", "app-1", u, TABLE).modelsChanged());
        SensitivityModel inForce = l.modelOf("etl", TABLE);
        assertEquals(ObservedRun.profile(Collections.nCopies(3, u), inForce), l.profileOf("etl", TABLE));
        assertEquals(0.4, l.profileOf("etl", TABLE).networkBound(), 1e-3);

        for (int units = 4; units <= 6; units++) {
            Set<String> changed = l.observe("etl", "app-1", u, TABLE).modelsChanged();
            assertEquals(units == 6 ? Set.of("etl") : Set.of(), changed, "after " + units + " units");
        }
        assertEquals(inForce, l.modelOf("etl", TABLE), "the same units: the same model");
        assertEquals(ObservedRun.profile(Collections.nCopies(6, u), inForce), l.profileOf("etl", TABLE));

        // a second run of it, of longer units: its record replaces the first's once it is as complete
        Observation longer = linkUnit(20, 0.4);
        for (int units = 1; units <= 6; units++) {
            Set<String> changed = l.observe("etl", "app-2", longer, TABLE).modelsChanged();
            assertEquals(units == 6 ? Set.of("etl") : Set.of(), changed, "app-2's unit " + units);
        }
        assertEquals(ObservedRun.profile(Collections.nCopies(6, longer), inForce), l.profileOf("etl", TABLE));

        LearnedModels copy = new LearnedModels(SensitivityMode.ONLINE);
        copy.restore(l.snapshot(), TABLE);
        assertEquals(l.profileOf("etl", TABLE), copy.profileOf("etl", TABLE), "a snapshot carries it");
        assertEquals(l.snapshot(), copy.snapshot());
    }

    @Test
    void theTablesCorunProfileComesFirstExceptOnline() {
        CorunProfile profiled = new CorunProfile(new TrafficRecord(0.1, new double[] {0, 1, 1, 0}), 0.5);
        ModelCatalog table = new ModelCatalog(Map.of("etl", SensitivityModel.inverse(0.5, 0.5)),
                Map.of("etl", profiled));
        for (SensitivityMode mode : SensitivityMode.values()) {
            LearnedModels l = new LearnedModels(mode);
            for (int i = 0; i < LearnedModels.ONLINE_MIN_UNITS; i++) {
                l.observe("etl", "app-1", linkUnit(10, 0.2), table);
                l.observe("new", "app-2", linkUnit(10, 0.2), table);
            }
            assertEquals(mode == SensitivityMode.ONLINE ? ObservedRun.profile(
                    Collections.nCopies(3, linkUnit(10, 0.2)), l.modelOf("etl", table)) : profiled,
                    l.profileOf("etl", table), mode.toString());
            CorunProfile learnt = l.profileOf("new", table);
            if (mode == SensitivityMode.TABLE) {
                assertNull(learnt);
                continue;
            }
            // blended puts a model in force from the first unit, so its profile may rest on fewer of them
            int units = (int) Math.round(learnt.record().seconds() / 10);
            assertTrue(units >= 2 && units <= 3, units + " units");
            assertEquals(ObservedRun.profile(Collections.nCopies(units, linkUnit(10, 0.2)), l.modelOf("new", table)),
                    learnt, mode.toString());
        }
    }

    @Test
    void unitsWithoutATimeLineMakeNoProfile() {
        LearnedModels l = new LearnedModels(SensitivityMode.ONLINE);
        for (int i = 0; i < 10; i++) {
            l.observe("etl", "app-1", unit(0.5), TABLE); // the engine's wait counter: task time, not wall clock
        }
        assertEquals(ModelSource.ESTIMATED, l.sourceOf("etl", TABLE));
        assertNull(l.profileOf("etl", TABLE));
        assertTrue(l.snapshot().get(0).runs().isEmpty());
    }
}
