/**
 * The real-Spark campaign's orchestration ({@code saba campaign --testbed}): it brings up its own namespace testbed
 * and one Spark standalone cluster inside it ({@link io.saba.harness.realspark.testbed.TestbedLab}), runs every setup
 * once under the baseline and once under Saba ({@link io.saba.harness.realspark.testbed.CoRun},
 * {@link io.saba.harness.realspark.testbed.ControllerProcess}) and appends the setup's rows
 * ({@link io.saba.harness.realspark.testbed.RealSparkCampaign}). Everything that starts a process or touches the
 * testbed is here, on the public APIs of the profiler (Spark on the testbed, the workloads' launcher) and of the
 * testbed; the pure parts are in {@link io.saba.harness.realspark}.
 */
package io.saba.harness.realspark.testbed;
