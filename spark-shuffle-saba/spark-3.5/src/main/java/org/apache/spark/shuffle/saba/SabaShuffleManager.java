package org.apache.spark.shuffle.saba;

import org.apache.spark.SparkConf;

/**
 * Drop-in shuffle manager for Spark 3.5:
 * {@code spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager}, nothing else.
 *
 * <p>Spark 3.5 builds the shuffle manager inside SparkEnv, before SparkContext reads {@code spark.plugins}, and
 * executors fetch their configuration from the driver afterwards. So the driver's instance adds {@link SabaPlugin}
 * to {@code spark.plugins} and both sides load it. Everything else is shared: {@link SabaSortShuffleManager}.
 */
public final class SabaShuffleManager extends SabaSortShuffleManager {
    public SabaShuffleManager(SparkConf sparkConf, boolean isDriver) {
        super(sparkConf, isDriver);
        if (needsPlugin()) {
            SabaPlugin.addTo(sparkConf);
        }
    }
}
