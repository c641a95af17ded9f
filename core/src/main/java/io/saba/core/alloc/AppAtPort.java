package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;

/**
 * An application crossing a port, as a port's allocation needs it.
 *
 * @param appId the application
 * @param level its priority level under the current {@link LevelPlan} (1..S-1)
 * @param model its workload's sensitivity model; applications of one workload share one instance (the pipeline
 *              groups them by identity)
 */
public record AppAtPort(String appId, int level, SensitivityModel model) {
}
