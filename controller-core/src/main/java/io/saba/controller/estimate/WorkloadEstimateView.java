package io.saba.controller.estimate;

import io.saba.core.corun.CorunProfile;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.model.SensitivityModel;

/**
 * What the status pages show of a workload: where the model in force comes from and the model itself, the online
 * estimate with its error (null before any observation), the table's model (null when unprofiled), and drift.
 *
 * @param contradicting consecutive units after which the estimate contradicted the table
 * @param deviation     the estimate against the table at the share where it lies furthest off (null without both)
 * @param corun         the co-run profile the predictor uses for it (null: none, so its ports keep Eq. 2's weights)
 * @param corunUnits    the units of one application that profile was learnt from (0: the table's)
 */
public record WorkloadEstimateView(String workload, ModelSource source, SensitivityModel inForce,
                                   SensitivityEstimate estimate, SensitivityModel table, boolean drifting,
                                   int contradicting, ModelDrift.Deviation deviation, CorunProfile corun,
                                   int corunUnits) {
}
