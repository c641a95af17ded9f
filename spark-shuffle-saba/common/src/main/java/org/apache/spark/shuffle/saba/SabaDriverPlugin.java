package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;

/**
 * Driver side: starts the Saba session, registers the application as soon as its id exists, answers executors'
 * level queries from memory (never waiting on the controller: this runs on Spark's RPC threads) and forwards their
 * connection reports; tags the driver's own connections; deregisters when the SparkContext stops.
 *
 * <p>The driver's connections: its RPC server accepts the executors' connections (task launches go down them,
 * results and heartbeats come up; the executors report both directions, since only they know a peer is one of the
 * application's executors and not the standalone master); its block-transfer server serves broadcast blocks and
 * is reported here; what it opens itself (fetching large task results, talking to the master) only carries
 * requests.
 *
 * <p>With {@code spark.saba.signals.enabled} (the default) a {@link StageSignalsListener} on Spark's listener bus
 * reports each stage's work signals.
 */
final class SabaDriverPlugin implements DriverPlugin {
    private SparkContext sc;
    private SabaDriver driver;
    private JvmTagging tagging;

    @Override
    public Map<String, String> init(SparkContext sc, PluginContext ctx) {
        this.sc = sc;
        SabaConf conf = SabaConf.from(sc.conf());
        if (conf.fallback() != FallbackPolicy.ALWAYS) {
            driver = SabaDriver.start(conf);
            // before the task scheduler starts, so before any executor connects
            SabaDriver d = driver;
            tagging = new JvmTagging("driver", d.tos(), d::tosAnswer, conf.levelRefresh(), d::onEvents);
            tagging.hook("RPC", SparkEnv.get().rpcEnv(), SocketTagger.Reporting.NONE, SocketTagger.Reporting.NONE);
            if (conf.signals()) {
                sc.addSparkListener(new StageSignalsListener(d::onStageSignals, sc.conf().get("spark.driver.host", "")));
            }
        }
        return Map.of();
    }

    /**
     * Spark calls this once the application id is known (after the task scheduler starts and the block manager is
     * initialised, before any job), which makes it the earliest synchronous point to register, and to hook the
     * block-transfer server that serves broadcast variables.
     */
    @Override
    public void registerMetrics(String appId, PluginContext ctx) {
        if (driver != null) {
            driver.register(appId, attemptOf(sc), sc.sparkUser());
            tagging.hook("block transfer", SparkEnv.get().blockManager().blockTransferService(),
                    SocketTagger.Reporting.SERVING, SocketTagger.Reporting.NONE);
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
        if (message instanceof Messages.TosQuery q) {
            return driver == null ? new Messages.TosAnswer(0, JvmTagging.MAX_WAIT_MILLIS)
                    : driver.answerLevelQuery(q.executorId());
        }
        if (message instanceof Messages.ConnectionEvents ev && driver != null) {
            driver.onEvents(ev.events());
        }
        return null;
    }

    @Override
    public void shutdown() {
        if (tagging != null) {
            tagging.close();
            tagging = null;
        }
        if (driver != null) {
            driver.close();
            driver = null;
        }
    }
}
