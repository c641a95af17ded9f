package io.saba.harness.sim.estimate;

import io.saba.controller.estimate.LearnedModels;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.StageRun;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a controller under a sensitivity mode has learnt from one simulated run: every stage run's unit
 * ({@link SimulatedUnits}) observed in the order the units ended, through the controller's own
 * {@link LearnedModels} (the estimator, drift, {@code online}'s minimum of units, {@code blended}'s prior, the
 * tolerance before a new model is put in force), under the table the run's controller had.
 *
 * @param mode    the sensitivity mode
 * @param inForce the model the controller's allocator would use, per workload observed (the table's or the default
 *                model where the mode put nothing in force)
 * @param views   what the controller's status pages would show per workload: estimate, error, drift
 */
public record RunLearning(SensitivityMode mode, Map<String, SensitivityModel> inForce,
                          Map<String, WorkloadEstimateView> views) {

    /** Feeds the run's stage runs, in the order they ended, to a fresh {@link LearnedModels} in {@code mode}. */
    public static RunLearning of(SensitivityMode mode, ModelCatalog catalog, List<StageRun> runs) {
        LearnedModels learned = new LearnedModels(mode);
        for (StageRun r : runs) {
            learned.observe(r.workload(), r.job(), SimulatedUnits.observation(r), catalog);
        }
        Map<String, WorkloadEstimateView> views = learned.views(catalog);
        Map<String, SensitivityModel> inForce = new TreeMap<>();
        views.keySet().forEach(w -> inForce.put(w, learned.modelOf(w, catalog)));
        return new RunLearning(mode, Map.copyOf(inForce), views);
    }

    /** The model in force for a workload: what the mode learnt, else the catalog's. */
    public SensitivityModel modelOf(String workload, ModelCatalog catalog) {
        SensitivityModel m = inForce.get(SensitivityTable.key(workload));
        return m != null ? m : catalog.modelOf(workload);
    }
}
