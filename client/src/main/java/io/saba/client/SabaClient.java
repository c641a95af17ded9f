package io.saba.client;

import io.saba.wire.Transport;
import io.saba.wire.DscpMap;
import io.saba.wire.ConnectionKey;
import io.saba.wire.WorkSignals;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Saba library's entry point: one per process (a driver, a JobManager, an RPerf run), shared by the
 * applications it registers.
 *
 * <pre>{@code
 * try (SabaClient saba = SabaClient.connect(ClientConfig.defaults("controller:7070"))) {
 *     SabaApplication app = saba.register(new AppSpec("app-1", "lr", "spark", "alice", 0));
 *     SocketTagging.tag(socket, app.tos());           // level 0 until the controller answers
 *     app.connectionOpened(src, dst, Transport.TCP);
 *     ...
 *     app.deregister();
 * }
 * }</pre>
 *
 * <p>Guarantees: no method blocks on the network, throws because of the controller, or waits for a lock held
 * across I/O. Work goes through a bounded queue to one sender thread. When the queue overflows, events are dropped
 * and the client re-syncs its whole mirror instead (latest state wins). When the controller is unreachable every
 * application runs at its last level (0 before the first answer), one warning is logged per outage, the sender
 * retries with exponential backoff, and on return it re-registers every application and replays its open
 * connections.
 */
public final class SabaClient implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SabaClient.class);

    private final ClientConfig config;
    private final List<ManagedChannel> channels;
    private final Map<String, SabaApplication> apps = new ConcurrentHashMap<>();
    private final BlockingQueue<Op> queue;
    private final AtomicLong seq = new AtomicLong();
    private final AtomicBoolean overflowed = new AtomicBoolean();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong droppedSignals = new AtomicLong();
    private final Sender sender;
    private final Thread senderThread;

    private SabaClient(ClientConfig config, List<ManagedChannel> channels) {
        this.config = config;
        this.channels = channels;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.sender = new Sender(this, channels, config);
        this.senderThread = new Thread(sender, "saba-client-sender");
        senderThread.setDaemon(true);
        senderThread.start();
    }

    /**
     * Creates the client; channels connect lazily, so this never waits for the controller. With several addresses
     * (a controller group) there is one channel per member, used one at a time: the sender moves to the next member
     * when a call fails for a reason other than the request itself, then re-registers and re-syncs there as after
     * any outage. (gRPC's own balancers would not move away from a member that is up but answers UNAVAILABLE, as a
     * member cut off from ZooKeeper does.)
     */
    public static SabaClient connect(ClientConfig config) {
        List<ManagedChannel> chs = new java.util.ArrayList<>();
        for (String target : config.targets()) {
            chs.add(Grpc.newChannelBuilder(target, credentials(config))
                    .intercept(new BearerTokenInterceptor(config.token()))
                    .maxInboundMessageSize(64 << 20)
                    .build());
        }
        return new SabaClient(config, List.copyOf(chs));
    }

    private static ChannelCredentials credentials(ClientConfig config) {
        if (config.trustCertPem() == null) {
            return InsecureChannelCredentials.create();
        }
        try {
            return TlsChannelCredentials.newBuilder().trustManager(config.trustCertPem().toFile()).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read TLS trust certificates " + config.trustCertPem(), e);
        }
    }

    /**
     * Registers an application (or returns the handle already registered under its id). The level is assigned by
     * the controller; the handle reports 0 until then.
     */
    public SabaApplication register(AppSpec spec) {
        SabaApplication existing = apps.get(spec.appId());
        if (existing != null && !existing.isDeregistered()) {
            return existing;
        }
        SabaApplication app = new SabaApplication(this, spec);
        apps.put(spec.appId(), app);
        if (!sender.healthy()) {
            app.unreachable();
        }
        offer(new Op.Register(app));
        return app;
    }

    /**
     * Opens the way to the controller in the background: the sender connects and makes one cheap call (a status
     * without connections), so that a registration made afterwards is answered in milliseconds rather than after the
     * channel's set-up and class loading (1.2–1.7 s in a JobManager on a 2-core machine). A process that registers
     * soon after it starts (a JobManager, a driver) calls this when it starts. Never blocks; a controller found away
     * counts as an outage, as for any call.
     */
    public void warmUp() {
        offer(new Op.WarmUp());
    }

    /** The handle of a registered application, or null. */
    public SabaApplication application(String appId) {
        return apps.get(appId);
    }

    public DscpMap dscpMap() {
        return config.dscpMap();
    }

    /** True while the last call to the controller succeeded. */
    public boolean controllerReachable() {
        return sender.healthy();
    }

    /**
     * How long until this client can next learn a new level for an application it has registered: its next
     * heartbeat, whose answers carry every application's current level. Zero when that may be now: a heartbeat
     * under way, the controller unreachable, a re-sync due. Besides heartbeats, a level arrives only with the answer
     * to a registration ({@link SabaApplication#assigned()}), and the controller keeps a running application's level
     * (see {@code LevelAssigner}), so whoever mirrors a level (Spark's executors, asking their driver) needs to ask
     * once after each heartbeat, not more often.
     */
    public Duration untilLevelNews() {
        return Duration.ofNanos(sender.nanosUntilLevelNews());
    }

    /** The controller address the client talks to now (one of the configured ones). */
    public String currentTarget() {
        return sender.currentTarget();
    }

    /** Outage warnings logged so far (one per outage, however long it lasts). */
    public long outageWarnings() {
        return sender.outageWarnings();
    }

    /** Events dropped because the queue was full (each drop schedules a full re-sync instead). */
    public long droppedEvents() {
        return dropped.get();
    }

    /**
     * Work signals not sent: the queue was full, the controller was unreachable when their turn came, or it keeps
     * none (an older contract revision).
     */
    public long droppedSignals() {
        return droppedSignals.get();
    }

    /**
     * Whether the controller is known to keep work signals: it said so when it answered a registration, or it kept
     * some of a batch. False until then.
     */
    public boolean controllerTakesSignals() {
        return sender.controllerTakesSignals();
    }

    /**
     * Reports a unit of work of an application that another process registered under the same tenant (the same
     * token): a Flink TaskManager's task, whose job the JobManager registered. Sent like
     * {@link SabaApplication#report}; a controller that does not know the application skips it (and says so in
     * its answer, which this client ignores, since it has no registration to renew). This client learns whether
     * the controller keeps signals from its answer to the first batch that carries some, as it registers nothing.
     */
    public void report(String appId, WorkSignals signals) {
        enqueueSignals(appId, null, signals);
    }

    /** Events waiting for the sender. */
    public int queued() {
        return queue.size();
    }

    /**
     * Sends what is still queued (bounded by the deadline; nothing while the controller is unreachable), then
     * stops. Applications not deregistered keep their registration until their lease runs out.
     */
    @Override
    public void close() {
        sender.drainThenStop();
        try {
            senderThread.join(config.deadline().toMillis() + 500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sender.stop();
        senderThread.interrupt();
        try {
            senderThread.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ManagedChannel channel : channels) {
            channel.shutdown();
        }
        for (ManagedChannel channel : channels) {
            try {
                if (!channel.awaitTermination(2, TimeUnit.SECONDS)) {
                    channel.shutdownNow();
                }
            } catch (InterruptedException e) {
                channel.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }

    long nextSeq() {
        return seq.incrementAndGet();
    }

    void enqueueEvent(SabaApplication app, boolean open, ConnectionKey key, long s) {
        offer(new Op.Event(app, open, key, s));
    }

    /**
     * Signals are observations, not state: when the queue is full they are dropped, and no re-sync is owed.
     *
     * @param app the handle of {@code appId} when this client registered it, or null
     */
    void enqueueSignals(String appId, SabaApplication app, WorkSignals signals) {
        if (!queue.offer(new Op.Signals(appId, app, signals))) {
            droppedSignals.incrementAndGet();
        }
    }

    void signalsDropped(int n) {
        droppedSignals.addAndGet(n);
    }

    void enqueueDeregister(SabaApplication app) {
        apps.remove(app.spec().appId(), app);
        offer(new Op.Deregister(app));
    }

    private void offer(Op op) {
        if (!queue.offer(op)) {
            dropped.incrementAndGet();
            if (overflowed.compareAndSet(false, true)) {
                LOG.warn("Saba client queue full ({} events); dropping events and re-syncing all applications",
                        config.queueCapacity());
            }
            sender.requestResync();
        }
    }

    BlockingQueue<Op> queue() {
        return queue;
    }

    Collection<SabaApplication> applications() {
        return List.copyOf(apps.values());
    }

    void overflowHandled() {
        overflowed.set(false);
    }

    /** Work for the sender thread, in caller order. */
    sealed interface Op {
        record Register(SabaApplication app) implements Op {
        }

        record Event(SabaApplication app, boolean open, ConnectionKey key, long seq) implements Op {
        }

        record Deregister(SabaApplication app) implements Op {
        }

        /** A unit's signals for {@code appId}; {@code app} is its handle when this client registered it, or null. */
        record Signals(String appId, SabaApplication app, WorkSignals signals) implements Op {
        }

        /** One cheap call to the controller ({@link SabaClient#warmUp()}). */
        record WarmUp() implements Op {
        }

        /** No work: wakes the sender (on close). */
        record Wake() implements Op {
        }
    }
}
