package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;

/**
 * An application crossing a port, as a port's allocation needs it.
 *
 * @param appId    the application
 * @param workload its sensitivity-table key (a weight decision may look more up by it, e.g. a co-run profile)
 * @param level    its priority level under the current {@link LevelPlan} (1..S-1)
 * @param model    its workload's sensitivity model; applications of one workload share one instance (the pipeline
 *                 groups them by identity)
 * @param flows    its connections across the port
 */
public record AppAtPort(String appId, String workload, int level, SensitivityModel model, int flows) {
}
