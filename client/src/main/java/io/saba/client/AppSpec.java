package io.saba.client;

/**
 * What an application tells the controller when it registers (the paper's Table 4.1 "register").
 *
 * @param appId     unique id, e.g. Spark's application id or Flink's JobID (at most 256 characters)
 * @param workload  sensitivity-table key, e.g. "lr"; unknown keys get the controller's default model
 * @param framework "spark", "flink", "rperf", ...
 * @param user      the submitting user, for the status page
 * @param attempt   driver attempt; a higher attempt replaces the previous attempt's connections
 */
public record AppSpec(String appId, String workload, String framework, String user, int attempt) {
    public AppSpec {
        if (appId == null || appId.isBlank()) {
            throw new IllegalArgumentException("an application needs an id");
        }
        workload = workload == null ? "" : workload;
        framework = framework == null ? "" : framework;
        user = user == null ? "" : user;
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be ≥ 0, got " + attempt);
        }
    }
}
