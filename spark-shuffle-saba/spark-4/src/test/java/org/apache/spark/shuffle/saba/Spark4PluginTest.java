package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * Spark 4 starts plugins before the shuffle manager: the Spark 3.5 way (the manager adds the plugin to
 * {@code spark.plugins}) would leave the driver side unstarted and every packet at DSCP 0, so a Spark 4
 * configuration without the plugin must stop at start-up and say what to add.
 */
class Spark4PluginTest {
    @Test
    void theManagerWithoutThePluginStopsTheSparkContextNamingSparkPlugins() {
        SparkConf conf = new SparkConf().setMaster("local[1]").setAppName("no-plugin").set("spark.ui.enabled", "false")
                .set("spark.shuffle.manager", LocalCluster.MANAGER);
        Throwable e = assertThrows(Throwable.class, () -> new JavaSparkContext(conf).close());
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append(" | ");
        }
        assertTrue(all.toString().contains("spark.plugins: Spark 4 starts plugins before the shuffle manager, so add "
                + SabaPlugin.class.getName()), all.toString());
        assertNull(SabaDriver.current());
    }

    @Test
    void thePluginInTheDefaultListIsEnough() {
        SparkConf conf = new SparkConf().setMaster("local[1]").setAppName("default-list")
                .set("spark.ui.enabled", "false").set("spark.shuffle.manager", LocalCluster.MANAGER)
                .set(SabaPlugin.DEFAULT_PLUGINS, SabaPlugin.class.getName());
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            assertEquals(7, LocalCluster.job(jsc, 1_000, 7).size());
            assertTrue(SabaDriver.current() != null, "the driver side runs");
        }
    }
}
