package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import java.util.LinkedHashSet;
import java.util.Set;
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
 * Drop-in shuffle manager: {@code spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager}.
 *
 * <p>Data movement is Spark's sort shuffle, untouched: every call is delegated. What Saba adds lives in
 * {@link SabaPlugin}, which this class puts into {@code spark.plugins} when the driver builds it (Spark 3.5 builds
 * the shuffle manager inside SparkEnv, before it reads {@code spark.plugins}, and executors fetch their
 * configuration from the driver afterwards, so both sides load the plugin). The plugin registers the application
 * when its id exists, tags every connection of the driver and the executors and reports those that carry data.
 *
 * <p>The constructor checks every {@code spark.saba.*} key, so bad configuration stops the SparkContext at
 * start-up with a message naming the key.
 */
public final class SabaShuffleManager implements ShuffleManager {
    static final String PLUGINS = "spark.plugins";

    private final SortShuffleManager sort;
    private final boolean isDriver;
    private final SabaConf conf;

    public SabaShuffleManager(SparkConf sparkConf, boolean isDriver) {
        this.conf = SabaConf.from(sparkConf);
        this.isDriver = isDriver;
        this.sort = new SortShuffleManager(sparkConf);
        if (isDriver && conf.fallback() != FallbackPolicy.ALWAYS) {
            addPlugin(sparkConf);
        }
    }

    static void addPlugin(SparkConf sparkConf) {
        Set<String> plugins = new LinkedHashSet<>();
        for (String p : sparkConf.get(PLUGINS, "").split(",")) {
            if (!p.isBlank()) {
                plugins.add(p.trim());
            }
        }
        if (plugins.add(SabaPlugin.class.getName())) {
            sparkConf.set(PLUGINS, String.join(",", plugins));
        }
    }

    @Override
    public <K, V, C> ShuffleHandle registerShuffle(int shuffleId, ShuffleDependency<K, V, C> dependency) {
        if (isDriver && conf.fallback() == FallbackPolicy.NEVER) {
            SabaDriver d = SabaDriver.current();
            if (d == null) {
                throw new IllegalStateException("Saba: " + SabaConf.FALLBACK + "=NEVER but the Saba plugin is not "
                        + "running (" + PLUGINS + " = " + dependency.rdd().context().conf().get(PLUGINS, "")
                        + ")");
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
