package org.apache.spark.shuffle.saba;

import io.netty.channel.Channel;
import io.saba.client.FallbackPolicy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executor side: tags the connections this executor's block-transfer server accepts with the application's TOS,
 * keeps that TOS current by asking the driver every {@code spark.saba.level.refresh}, and reports the connections
 * to the driver. Spark creates executor plugins after the block manager has bound its server and before any task
 * runs, so no shuffle connection escapes the hook.
 *
 * <p>Nothing here can fail the executor: a missing hook or a silent driver costs priority, not the job.
 */
final class SabaExecutorPlugin implements ExecutorPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(SabaExecutorPlugin.class);
    private static final String HANDLER = "saba-accept-tagger";

    private ScheduledExecutorService thread;
    private PluginContext ctx;
    private AcceptTagger tagger;
    private Channel listening;

    @Override
    public void init(PluginContext ctx, Map<String, String> extraConf) {
        this.ctx = ctx;
        SparkConf sparkConf = ctx.conf();
        SabaConf conf = SabaConf.from(sparkConf);
        if (conf.fallback() == FallbackPolicy.ALWAYS) {
            return;
        }
        if ("driver".equals(ctx.executorID())) { // SparkContext.DRIVER_IDENTIFIER (private[spark])
            // local mode: the executor lives in the driver and shuffle blocks never cross a socket
            LOG.debug("Saba: local mode, nothing to tag");
            return;
        }
        if (sparkConf.getBoolean("spark.shuffle.service.enabled", false)) {
            LOG.warn("Saba: the external shuffle service serves this application's shuffle data from outside the "
                    + "application; Saba tags only what this executor serves itself (see the module README)");
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "saba-executor");
            t.setDaemon(true);
            return t;
        });
        tagger = new AcceptTagger(askTos(conf.dscpMap().tos(0)), e -> thread.execute(() -> send(e)));
        try {
            listening = ServerHook.listeningChannel(SparkEnv.get().blockManager().blockTransferService());
            listening.pipeline().addFirst(HANDLER, tagger);
            LOG.info("Saba: tagging connections accepted on {} with TOS {}", listening.localAddress(), tagger.tos());
        } catch (RuntimeException e) {
            LOG.warn("Saba: cannot hook the block transfer server; this executor's shuffle traffic stays untagged",
                    e);
        }
        long every = conf.levelRefresh().toMillis();
        thread.scheduleWithFixedDelay(this::refresh, every, every, TimeUnit.MILLISECONDS);
    }

    private int askTos(int dflt) {
        try {
            Object r = ctx.ask(new Messages.TosQuery(ctx.executorID()));
            return r instanceof Integer t ? t : dflt;
        } catch (Exception e) {
            LOG.debug("Saba: the driver did not answer the level query: {}", e.toString());
            return dflt;
        }
    }

    private void refresh() {
        int t = askTos(tagger.tos());
        if (t != tagger.tos()) {
            LOG.info("Saba: the application's TOS is now {} (was {}); re-tagging {} open connections", t,
                    tagger.tos(), tagger.liveConnections());
            tagger.retag(t);
        }
    }

    private void send(Messages.ConnectionEvent e) {
        try {
            ctx.send(new Messages.ConnectionEvents(List.of(e)));
        } catch (Exception ex) {
            LOG.debug("Saba: cannot report a connection to the driver: {}", ex.toString());
        }
    }

    @Override
    public void shutdown() {
        if (thread == null) {
            return;
        }
        if (listening != null && listening.pipeline().get(HANDLER) != null) {
            listening.pipeline().remove(HANDLER);
        }
        tagger.closeAll();
        thread.shutdown();
        try {
            thread.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
