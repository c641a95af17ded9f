package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;

/**
 * Driver side: starts the Saba session, registers the application as soon as its id exists, answers executors'
 * level queries from memory (never waiting on the controller: this runs on Spark's RPC threads) and forwards their
 * connection reports; deregisters when the SparkContext stops.
 */
final class SabaDriverPlugin implements DriverPlugin {
    private SparkContext sc;
    private SabaDriver driver;

    @Override
    public Map<String, String> init(SparkContext sc, PluginContext ctx) {
        this.sc = sc;
        SabaConf conf = SabaConf.from(sc.conf());
        if (conf.fallback() != FallbackPolicy.ALWAYS) {
            driver = SabaDriver.start(conf);
        }
        return Map.of();
    }

    /**
     * Spark calls this once the application id is known (after the task scheduler starts, before any job), which
     * makes it the earliest synchronous point to register.
     */
    @Override
    public void registerMetrics(String appId, PluginContext ctx) {
        if (driver != null) {
            driver.register(appId, attemptOf(sc), sc.sparkUser());
        }
    }

    static int attemptOf(SparkContext sc) {
        scala.Option<String> a = sc.applicationAttemptId();
        if (a.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(a.get()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public Object receive(Object message) {
        if (message instanceof Messages.TosQuery) {
            return driver == null ? 0 : driver.tos();
        }
        if (message instanceof Messages.ConnectionEvents ev && driver != null) {
            driver.onEvents(ev.events());
        }
        return null;
    }

    @Override
    public void shutdown() {
        if (driver != null) {
            driver.close();
            driver = null;
        }
    }
}
