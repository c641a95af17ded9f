/**
 * Sensitivity learned while jobs run, the controller's side: each unit of work an application reports
 * becomes an {@link io.saba.core.estimate.Observation} at the share its weights gave it ({@link
 * io.saba.controller.estimate.AppShares}, this controller's own record, outside the log); the observations are
 * applied per workload by the replica ({@link io.saba.controller.estimate.LearnedModels}), which estimates, checks
 * drift, and, under {@code sensitivity: online|blended} ({@link io.saba.controller.estimate.SensitivityMode}), puts
 * the estimated or blended model in force. Under those modes observations go through the log, so a replay or a
 * group member computes the same models and the same allocations; under {@code table} they stay here and only show.
 */
package io.saba.controller.estimate;
