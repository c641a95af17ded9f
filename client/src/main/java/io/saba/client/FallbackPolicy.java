package io.saba.client;

import java.util.Locale;

/**
 * What an engine plugin does when Saba cannot do its part; one policy for Spark ({@code spark.saba.fallback}) and
 * Flink ({@code saba.fallback}). The names follow Celeborn's shuffle fallback policy, where "fall back" means "run as
 * the engine's plain shuffle".
 */
public enum FallbackPolicy {
    /** Always the plain engine: no controller, no tagging. An operator's off switch that keeps the configuration. */
    ALWAYS,
    /** Default. Controller away, slow or killed: the job runs on at the default class (DSCP 0), one warning. */
    AUTO,
    /** Fail fast: a job's data cannot start moving unless the controller has answered its registration. */
    NEVER;

    /**
     * Parses a policy name, case-insensitively.
     *
     * @param key the configuration key, named in the error
     * @throws IllegalArgumentException whose message starts with {@code key}
     */
    public static FallbackPolicy parse(String value, String key) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": unknown fallback policy '" + value
                    + "' (expected ALWAYS, AUTO or NEVER)", e);
        }
    }
}
