package io.saba.harness.campaign;

/**
 * One job of one setup under both policies.
 *
 * @param setup           setup index
 * @param job             job id
 * @param workload        workload name
 * @param datasetScale    dataset relative to the profiled one
 * @param instances       number of instances
 * @param baselineSeconds completion time under the baseline
 * @param policySeconds   completion time under the policy compared (Saba unless stated)
 */
public record JobOutcome(int setup, String job, String workload, double datasetScale, int instances,
                         double baselineSeconds, double policySeconds) implements java.io.Serializable {
    /** Baseline time / policy time: above 1 the policy is faster. */
    public double speedup() {
        return baselineSeconds / policySeconds;
    }
}
