package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.ShuffleBlockResolver;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.ShuffleManager;
import org.apache.spark.shuffle.ShuffleReadMetricsReporter;
import org.apache.spark.shuffle.ShuffleReader;
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter;
import org.apache.spark.shuffle.ShuffleWriter;
import org.apache.spark.shuffle.sort.SortShuffleManager;

/**
 * What every Spark version's {@code SabaShuffleManager} shares: data movement is Spark's sort shuffle, untouched
 * (every call is delegated), and with {@code spark.saba.fallback=NEVER} a shuffle does not start unless the driver
 * plugin runs and the controller has answered. How the plugin gets started differs by Spark version, so each
 * version module's {@code SabaShuffleManager} extends this class and does only that.
 *
 * <p>The constructor checks every {@code spark.saba.*} key, so bad configuration stops the SparkContext at start-up
 * with a message naming the key.
 */
abstract class SabaSortShuffleManager implements ShuffleManager {
    private final SortShuffleManager sort;
    private final boolean isDriver;
    private final SabaConf conf;

    SabaSortShuffleManager(SparkConf sparkConf, boolean isDriver) {
        this.conf = SabaConf.from(sparkConf);
        this.isDriver = isDriver;
        this.sort = new SortShuffleManager(sparkConf);
    }

    /** Whether this instance must see the plugin running: on the driver, unless Saba is switched off. */
    final boolean needsPlugin() {
        return isDriver && conf.fallback() != FallbackPolicy.ALWAYS;
    }

    @Override
    public <K, V, C> ShuffleHandle registerShuffle(int shuffleId, ShuffleDependency<K, V, C> dependency) {
        if (isDriver && conf.fallback() == FallbackPolicy.NEVER) {
            SabaDriver d = SabaDriver.current();
            if (d == null) {
                throw new IllegalStateException("Saba: " + SabaConf.FALLBACK + "=NEVER but the Saba plugin is not "
                        + "running (" + SabaPlugin.PLUGINS + " = "
                        + dependency.rdd().context().conf().get(SabaPlugin.PLUGINS, "") + ")");
            }
            d.requireController();
        }
        return sort.registerShuffle(shuffleId, dependency);
    }

    @Override
    public <K, V> ShuffleWriter<K, V> getWriter(ShuffleHandle handle, long mapId, TaskContext context,
                                                ShuffleWriteMetricsReporter metrics) {
        return sort.getWriter(handle, mapId, context, metrics);
    }

    @Override
    public <K, C> ShuffleReader<K, C> getReader(ShuffleHandle handle, int startMapIndex, int endMapIndex,
                                                int startPartition, int endPartition, TaskContext context,
                                                ShuffleReadMetricsReporter metrics) {
        return sort.getReader(handle, startMapIndex, endMapIndex, startPartition, endPartition, context, metrics);
    }

    @Override
    public boolean unregisterShuffle(int shuffleId) {
        return sort.unregisterShuffle(shuffleId);
    }

    @Override
    public ShuffleBlockResolver shuffleBlockResolver() {
        return sort.shuffleBlockResolver();
    }

    @Override
    public void stop() {
        sort.stop();
    }
}
