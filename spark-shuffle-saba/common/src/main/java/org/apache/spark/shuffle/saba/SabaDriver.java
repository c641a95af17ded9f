package org.apache.spark.shuffle.saba;

import io.saba.client.AppSpec;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.client.SignalsFile;
import io.saba.wire.WorkSignals;
import io.saba.wire.Transport;
import io.saba.controller.server.EmbeddedController;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of Saba for one SparkContext: the one {@link SabaClient} of the application (executors never
 * talk to the controller; they talk to this through the plugin RPC), the registration, and the embedded
 * controller when no address is configured.
 *
 * <p>Spark builds the shuffle manager and the plugin separately by reflection, so they meet through
 * {@link #current()}: static state, but one value per driver JVM, which is also one SparkContext.
 */
final class SabaDriver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SabaDriver.class);
    private static volatile SabaDriver current;

    private final SabaConf conf;
    private final EmbeddedController embedded;
    private final SabaClient client;
    private final List<Messages.ConnectionEvent> early = new ArrayList<>();
    private volatile SabaApplication app;
    private volatile SignalsFile signalsFile;
    private final AtomicLong levelQueries = new AtomicLong();
    private final Map<String, Integer> answeredTos = new ConcurrentHashMap<>();

    private SabaDriver(SabaConf conf, EmbeddedController embedded, SabaClient client) {
        this.conf = conf;
        this.embedded = embedded;
        this.client = client;
    }

    /** Starts the client (and the embedded controller when no address is set); never waits for a controller. */
    static synchronized SabaDriver start(SabaConf conf) {
        if (current != null) {
            current.close();
        }
        EmbeddedController embedded = null;
        String target = conf.controllerAddress();
        if (target == null) {
            embedded = EmbeddedControllerLauncher.start(conf);
            target = embedded.target();
            LOG.info("Saba: no {} set; started an embedded controller at {} ({})", SabaConf.ADDRESS, target,
                    conf.embeddedConfig() == null ? "default: dry-run, this machine as one host" : conf.embeddedConfig());
        }
        current = new SabaDriver(conf, embedded, SabaClient.connect(conf.clientConfig(target)));
        return current;
    }

    /** The session of this driver JVM, or null when Saba is off or not started yet. */
    static SabaDriver current() {
        return current;
    }

    SabaConf conf() {
        return conf;
    }

    /** The embedded controller, or null when an external one is configured. */
    EmbeddedController embedded() {
        return embedded;
    }

    SabaClient client() {
        return client;
    }

    /** The registered application, or null before registration. */
    SabaApplication application() {
        return app;
    }

    /** Registers the application once (later calls return the same handle); returns at once. */
    synchronized SabaApplication register(String appId, int attempt, String user) {
        if (app == null) {
            app = client.register(new AppSpec(appId, conf.workload(), "spark", user, attempt));
            if (conf.signals() && conf.signalsPath() != null) {
                signalsFile = SignalsFile.in(conf.signalsPath(), app.spec());
                LOG.info("Saba: work signals of {} recorded in {}", appId, signalsFile.file());
            }
            LOG.info("Saba: registered {} (workload '{}', attempt {}) with the controller at {}", appId,
                    conf.workload(), attempt, conf.controllerAddress() == null ? "embedded" : conf.controllerAddress());
            early.forEach(this::apply);
            early.clear();
        }
        return app;
    }

    /** The TOS byte for the application's current level (the default class before registration). */
    int tos() {
        SabaApplication a = app;
        return a == null ? conf.dscpMap().tos(0) : a.tos();
    }

    /**
     * The application's TOS now, and how long until this driver can next learn another: its client's next
     * heartbeat once the controller has answered the registration; at once before that or during an outage; never
     * when the controller refused the application (it runs at the default class for good).
     */
    Messages.TosAnswer tosAnswer() {
        SabaApplication a = app;
        long untilNews;
        if (a != null && a.refusal() != null) {
            untilNews = Long.MAX_VALUE;
        } else if (a == null || !a.registered()) {
            untilNews = 0;
        } else {
            untilNews = client.untilLevelNews().toMillis();
        }
        return new Messages.TosAnswer(tos(), untilNews);
    }

    /** {@link #tosAnswer()} for an executor's question, counted ({@link #levelQueries()}) and remembered. */
    Messages.TosAnswer answerLevelQuery(String executorId) {
        levelQueries.incrementAndGet();
        Messages.TosAnswer a = tosAnswer();
        answeredTos.put(executorId, a.tos());
        return a;
    }

    /** The executors' level queries answered so far. */
    long levelQueries() {
        return levelQueries.get();
    }

    /** The executors whose last answer carried another TOS than the application's now (their tag lags). */
    List<String> executorsBehind() {
        int now = tos();
        return answeredTos.entrySet().stream().filter(e -> e.getValue() != now).map(Map.Entry::getKey).sorted()
                .toList();
    }

    /**
     * A stage's work signals (from the listener bus): to the controller with the next batched report, and to the
     * record when one is configured. Never blocks; before registration (no job runs then) there is nobody to report.
     */
    void onStageSignals(WorkSignals s) {
        SabaApplication a = app;
        if (a != null) {
            a.report(s);
        }
        SignalsFile f = signalsFile;
        if (f != null) {
            f.append(s);
        }
    }

    synchronized void onEvents(List<Messages.ConnectionEvent> events) {
        if (app == null) {
            early.addAll(events);
            return;
        }
        events.forEach(this::apply);
    }

    private void apply(Messages.ConnectionEvent e) {
        InetSocketAddress src = new InetSocketAddress(e.srcIp(), e.srcPort());
        InetSocketAddress dst = new InetSocketAddress(e.dstIp(), e.dstPort());
        if (e.open()) {
            app.connectionOpened(src, dst, Transport.TCP);
        } else {
            app.connectionClosed(src, dst, Transport.TCP);
        }
    }

    /**
     * Policy NEVER: throws unless the controller answered this application's registration and is reachable now.
     * Waits at most {@code spark.saba.register.timeout} for the first answer (a Spark-only key: Flink's JobMaster waits
     * {@code saba.controller.timeout} under NEVER).
     */
    void requireController() {
        SabaApplication a = app;
        String where = conf.controllerAddress() == null ? "the embedded controller" : conf.controllerAddress();
        if (a == null) {
            throw new IllegalStateException("Saba: the application is not registered yet and "
                    + SabaConf.FALLBACK + "=NEVER");
        }
        try {
            a.assigned().get(conf.registerTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Saba: no answer from " + where + " within "
                    + conf.registerTimeout().toMillis() + " ms and " + SabaConf.FALLBACK + "=NEVER", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Saba: interrupted while waiting for the controller", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("Saba: registration failed", e);
        }
        if (!client.controllerReachable()) {
            throw new IllegalStateException("Saba: controller " + where + " unreachable and " + SabaConf.FALLBACK
                    + "=NEVER (set it to AUTO to run on at the default class instead)");
        }
    }

    /**
     * Deregisters, then closes the client (which sends what is queued, bounded by the RPC deadline and skipped
     * while the controller is unreachable, so a dead controller cannot hold up the driver's exit) and the embedded
     * controller.
     */
    @Override
    public void close() {
        synchronized (SabaDriver.class) {
            if (current == this) {
                current = null;
            }
        }
        SabaApplication a = app;
        if (a != null) {
            a.deregister();
        }
        client.close();
        if (signalsFile != null) {
            signalsFile.close();
        }
        if (embedded != null) {
            embedded.close();
        }
        LOG.info("Saba: {} deregistered; client closed; {} level queries from executors answered",
                a == null ? "no application" : a.spec().appId(), levelQueries.get());
    }
}
