package org.apache.spark.shuffle.saba;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Saba's Spark plugin: the public channel between executors and the driver. On Spark 3.5 the shuffle manager adds
 * it to {@code spark.plugins} itself, so users set only the shuffle manager; Spark 4 starts plugins before the
 * shuffle manager, so there users list it (see each version's {@code SabaShuffleManager}).
 */
public final class SabaPlugin implements SparkPlugin {
    static final String PLUGINS = "spark.plugins";
    /** Spark's second list of plugins, meant for cluster-wide defaults (spark-defaults.conf). */
    static final String DEFAULT_PLUGINS = "spark.plugins.defaultList";

    @Override
    public DriverPlugin driverPlugin() {
        return new SabaDriverPlugin();
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new SabaExecutorPlugin();
    }

    /** Whether {@code spark.plugins} or {@code spark.plugins.defaultList} names this plugin. */
    static boolean listedIn(SparkConf conf) {
        return names(conf.get(PLUGINS, "")).contains(SabaPlugin.class.getName())
                || names(conf.get(DEFAULT_PLUGINS, "")).contains(SabaPlugin.class.getName());
    }

    /** Adds this plugin to {@code spark.plugins}, keeping what is there. */
    static void addTo(SparkConf conf) {
        Set<String> plugins = names(conf.get(PLUGINS, ""));
        if (plugins.add(SabaPlugin.class.getName())) {
            conf.set(PLUGINS, String.join(",", plugins));
        }
    }

    private static Set<String> names(String list) {
        Set<String> out = new LinkedHashSet<>();
        Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }
}
