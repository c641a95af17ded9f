package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.shuffle.ShuffleHandle;
import org.apache.spark.shuffle.sort.SortShuffleManager;

/**
 * What every Spark version's {@code SabaShuffleManager} shares: data movement is Spark's sort shuffle, untouched,
 * and with {@code spark.saba.fallback=NEVER} a shuffle does not start unless the driver plugin runs and the
 * controller has answered. How the plugin gets started differs by Spark version, so each version module's
 * {@code SabaShuffleManager} extends this class and does only that.
 *
 * <p>It is a {@link SortShuffleManager}, not a wrapper around one, because Spark asks: Spark SQL's exchange copies
 * every row before a shuffle unless {@code shuffleManager.isInstanceOf[SortShuffleManager]}
 * ({@code ShuffleExchangeExec.needToCopyObjectsBeforeShuffle}), a cost a wrapper made every DataFrame job pay.
 *
 * <p>The constructor checks every {@code spark.saba.*} key, so bad configuration stops the SparkContext at start-up
 * with a message naming the key.
 */
abstract class SabaSortShuffleManager extends SortShuffleManager {
    private final boolean isDriver;
    private final SabaConf conf;

    SabaSortShuffleManager(SparkConf sparkConf, boolean isDriver) {
        super(sparkConf);
        this.conf = SabaConf.from(sparkConf);
        this.isDriver = isDriver;
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
        return super.registerShuffle(shuffleId, dependency);
    }
}
