/**
 * Workloads as data: a workload is a list of stages (compute, then an all-to-all shuffle among the job's
 * instances), calibrated so that the simulated profiler reproduces the paper's sensitivity points. Also the
 * simulated profiler, which fits sensitivity models exactly as the real profiler does.
 */
package io.saba.harness.sim.workload;
