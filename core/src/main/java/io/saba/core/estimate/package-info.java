/**
 * Sensitivity learned while jobs run: what an application's units of work (Spark stages, Flink tasks)
 * spent blocked on the network at the share of the link they had, turned into a slowdown curve of the model space
 * ({@link io.saba.core.estimate.SensitivityEstimate}, derivation there), blended with the profiled table as a prior,
 * and checked against the table for drift ({@link io.saba.core.estimate.ModelDrift},
 * {@link io.saba.core.estimate.WorkloadEstimator}). Pure logic: the controller feeds it observations and keeps it.
 */
package io.saba.core.estimate;
