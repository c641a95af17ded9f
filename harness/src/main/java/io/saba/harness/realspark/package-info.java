/**
 * The real-Spark campaign on the namespace testbed ({@code saba campaign --testbed}), its pure parts: which jobs a
 * setup runs and on which hosts ({@link io.saba.harness.realspark.SetupDraws}), how Spark standalone is made to put
 * each instance on its drawn host ({@link io.saba.harness.realspark.Placement}), the per-job results file
 * ({@link io.saba.harness.realspark.JobsCsv}), and the comparison with the paper's Fig. 8
 * ({@link io.saba.harness.realspark.CampaignReport}). The orchestration that runs real processes on the testbed is
 * {@link io.saba.harness.realspark.testbed}.
 */
package io.saba.harness.realspark;
