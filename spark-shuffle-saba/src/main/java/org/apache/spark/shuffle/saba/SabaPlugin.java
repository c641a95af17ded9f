package org.apache.spark.shuffle.saba;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Saba's Spark plugin: the public channel between executors and the driver. {@link SabaShuffleManager} adds it to
 * {@code spark.plugins} itself, so users set only the shuffle manager; listing it by hand is harmless.
 */
public final class SabaPlugin implements SparkPlugin {
    @Override
    public DriverPlugin driverPlugin() {
        return new SabaDriverPlugin();
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new SabaExecutorPlugin();
    }
}
