package org.apache.spark.shuffle.saba;

import org.apache.spark.SparkConf;

/**
 * Drop-in shuffle manager for Spark 4.0 and 4.1: set both
 * {@code spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager} and
 * {@code spark.plugins=org.apache.spark.shuffle.saba.SabaPlugin}.
 *
 * <p>Spark 4 (SPARK-45762) starts the plugins before it builds the shuffle manager, on the driver and on
 * executors, so that both can come from user jars. A plugin this class added to {@code spark.plugins}, as the
 * Spark 3.5 one does, would reach the executors but never start on the driver: executors would ask a driver
 * endpoint that does not exist and tag with DSCP 0. So the driver's instance only checks that the plugin is listed
 * and otherwise stops the SparkContext at start-up, naming the key, as any bad {@code spark.saba.*} value does.
 * Everything else is shared: {@link SabaSortShuffleManager}.
 */
public final class SabaShuffleManager extends SabaSortShuffleManager {
    public SabaShuffleManager(SparkConf sparkConf, boolean isDriver) {
        super(sparkConf, isDriver);
        if (needsPlugin() && !SabaPlugin.listedIn(sparkConf)) {
            throw new IllegalArgumentException(SabaPlugin.PLUGINS + ": Spark 4 starts plugins before the shuffle "
                    + "manager, so add " + SabaPlugin.class.getName() + " to " + SabaPlugin.PLUGINS + " (or set "
                    + SabaConf.FALLBACK + "=ALWAYS to run without Saba)");
        }
    }
}
