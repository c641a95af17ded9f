package io.saba.client;

import java.util.Locale;

/**
 * What an application tells the controller when it registers (the paper's Table 4.1 "register").
 *
 * @param appId     unique id, e.g. Spark's application id or Flink's JobID (at most 256 characters)
 * @param workload  sensitivity-table key, e.g. "lr"; unknown keys get the controller's default model; null or
 *                  blank means {@link #DEFAULT_WORKLOAD}
 * @param framework "spark", "flink", "rperf", ...
 * @param user      the submitting user, for the status page
 * @param attempt   driver attempt; a higher attempt replaces the previous attempt's connections
 */
public record AppSpec(String appId, String workload, String framework, String user, int attempt) {
    /**
     * The workload of an application that names none, in every engine: a key no profile uses, so the controller
     * gives it its default model (unless the operator's table has an entry called {@code default}).
     */
    public static final String DEFAULT_WORKLOAD = "default";

    public AppSpec {
        if (appId == null || appId.isBlank()) {
            throw new IllegalArgumentException("an application needs an id");
        }
        workload = workloadOrDefault(workload);
        framework = framework == null ? "" : framework;
        user = user == null ? "" : user;
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be ≥ 0, got " + attempt);
        }
    }

    /** The workload trimmed, or {@link #DEFAULT_WORKLOAD} when null or blank (what the controller does too). */
    public static String workloadOrDefault(String workload) {
        return workload == null || workload.isBlank() ? DEFAULT_WORKLOAD : workload.trim();
    }

    /**
     * The workload of an application that did not set one, from its name (a Spark application's or a Flink job's):
     * lower-cased, runs of other characters than letters and digits turned into '-', or {@link #DEFAULT_WORKLOAD}
     * when nothing is left. A name that happens to be a profiled workload ("pagerank") gets that profile.
     */
    public static String workloadFromName(String name) {
        String w = name == null ? "" : name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-|-$", "");
        return w.isEmpty() ? DEFAULT_WORKLOAD : w;
    }
}
