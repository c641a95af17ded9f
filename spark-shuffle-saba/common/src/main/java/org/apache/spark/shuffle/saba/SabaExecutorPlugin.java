package org.apache.spark.shuffle.saba;

import io.saba.client.FallbackPolicy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executor side: tags every connection of this executor with the application's TOS (its RPC connection to the
 * driver, which carries task launches, results and heartbeats; the connections its block-transfer server accepts,
 * which serve shuffle, broadcast and result blocks; and the ones it opens to fetch them), keeps that TOS current by
 * asking the driver just after each of the driver's heartbeats to the controller (when a new level can arrive; every
 * {@code spark.saba.level.refresh} while the driver cannot tell), and reports the connections that carry data to the
 * driver. Spark creates executor plugins after the block manager has bound its server and before any task runs;
 * what the executor sent before (its registration with the driver) are small messages.
 */
final class SabaExecutorPlugin implements ExecutorPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(SabaExecutorPlugin.class);

    private PluginContext ctx;
    private JvmTagging tagging;

    @Override
    public void init(PluginContext ctx, Map<String, String> extraConf) {
        this.ctx = ctx;
        SparkConf sparkConf = ctx.conf();
        SabaConf conf = SabaConf.from(sparkConf);
        if (conf.fallback() == FallbackPolicy.ALWAYS) {
            return;
        }
        if ("driver".equals(ctx.executorID())) { // SparkContext.DRIVER_IDENTIFIER (private[spark])
            // local mode: the executor lives in the driver, whose plugin tags this JVM
            LOG.debug("Saba: local mode, the driver tags");
            return;
        }
        if (sparkConf.getBoolean("spark.shuffle.service.enabled", false)) {
            LOG.warn("Saba: the external shuffle service serves this application's shuffle data from outside the "
                    + "application; Saba tags only what this executor serves itself (see the module README)");
        }
        Messages.TosAnswer first = askTos();
        tagging = new JvmTagging("executor " + ctx.executorID(), first == null ? conf.dscpMap().tos(0) : first.tos(),
                this::askTos, conf.levelRefresh(), this::send);
        SparkEnv env = SparkEnv.get();
        // an executor's RPC environment has no server: it talks to the driver over connections it opens
        tagging.hook("RPC", env.rpcEnv(), SocketTagger.Reporting.NONE, toDriver(sparkConf));
        tagging.hook("block transfer", env.blockManager().blockTransferService(), SocketTagger.Reporting.SERVING,
                SocketTagger.Reporting.NONE);
    }

    /**
     * RPC connections to the driver carry data both ways (launches and broadcast pieces down, results up); others
     * (the standalone worker this executor watches) are not the application's to report.
     */
    private static SocketTagger.Reporting toDriver(SparkConf conf) {
        String host = conf.get("spark.driver.host", "");
        int port = conf.getInt("spark.driver.port", -1);
        InetAddress driver;
        try {
            driver = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            LOG.warn("Saba: cannot resolve spark.driver.host '{}'; RPC connections are tagged but not reported", host);
            return SocketTagger.Reporting.NONE;
        }
        return (local, remote) -> remote.getPort() == port && remote.getAddress().equals(driver)
                ? SocketTagger.Reporting.BOTH_WAYS.opened(local, remote) : List.of();
    }

    /** The application's TOS as the driver knows it, or null when the driver does not answer. */
    private Messages.TosAnswer askTos() {
        try {
            Object r = ctx.ask(new Messages.TosQuery(ctx.executorID()));
            return r instanceof Messages.TosAnswer a ? a : null;
        } catch (Exception e) {
            LOG.debug("Saba: the driver did not answer the level query: {}", e.toString());
            return null;
        }
    }

    private void send(List<Messages.ConnectionEvent> events) {
        try {
            ctx.send(new Messages.ConnectionEvents(events));
        } catch (Exception ex) {
            LOG.debug("Saba: cannot report a connection to the driver: {}", ex.toString());
        }
    }

    @Override
    public void shutdown() {
        if (tagging != null) {
            tagging.close();
            tagging = null;
        }
    }
}
