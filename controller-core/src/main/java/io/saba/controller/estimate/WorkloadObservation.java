package io.saba.controller.estimate;

import io.saba.core.estimate.Observation;

/** One unit of a workload's work, at the share its application had: what the log carries to the estimator. */
public record WorkloadObservation(String workload, Observation observation) {
}
