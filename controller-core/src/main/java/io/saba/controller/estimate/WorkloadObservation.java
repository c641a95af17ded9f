package io.saba.controller.estimate;

import io.saba.core.estimate.Observation;

/**
 * One unit of a workload's work, at the share its application had: what the log carries to the estimator.
 *
 * @param workload    the workload the application runs
 * @param app         the application that reported it ("" in a log written before applications were carried)
 * @param observation the unit
 */
public record WorkloadObservation(String workload, String app, Observation observation) {
}
