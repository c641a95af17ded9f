package org.apache.spark.shuffle.saba;

import java.util.Locale;

/**
 * What to do when Saba cannot do its part (the names follow Celeborn's shuffle fallback policy, where "fall back"
 * means "run as plain Spark").
 */
public enum FallbackPolicy {
    /** Always plain Spark: no controller, no tagging. An operator's off switch that keeps the configuration. */
    ALWAYS,
    /** Default. Controller away, slow or killed: the job runs on at the default class (DSCP 0), one warning. */
    AUTO,
    /** Fail fast: a shuffle cannot start unless the controller has answered the registration and is reachable. */
    NEVER;

    static FallbackPolicy parse(String value, String key) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": unknown fallback policy '" + value
                    + "' (expected ALWAYS, AUTO or NEVER)", e);
        }
    }
}
