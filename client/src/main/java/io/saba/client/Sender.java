package io.saba.client;

import io.saba.wire.ConnectionKey;
import io.saba.wire.ConnectionProto;
import io.saba.wire.Contract;
import io.saba.wire.SignalsProto;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.DeregisterRequest;
import io.saba.proto.v1.EventAck;
import io.saba.proto.v1.HeartbeatRequest;
import io.saba.proto.v1.HeartbeatResponse;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.RegisterResponse;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.SyncRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's only thread that talks to the controller. Blocking stubs with a deadline keep it simple: there is
 * one call in flight, the queue absorbs bursts, and batching keeps throughput high.
 *
 * <p>States: healthy (drain the queue, heartbeat) and unhealthy (queue drained and discarded, since the mirror in
 * each {@link SabaApplication} holds the truth; retry a full re-sync with exponential backoff and jitter).
 */
final class Sender implements Runnable {
    /** How long a call waits for more events after the first (see {@link #withFollowers}). */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Work signals in one ReportConnections call (the contract's limit). */
    static final int MAX_SIGNALS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(Sender.class);

    private final SabaClient client;
    private final List<ControllerGrpc.ControllerBlockingStub> stubs;
    private final List<String> targets;
    private volatile int current;
    private final ClientConfig config;
    private final AtomicLong outageWarnings = new AtomicLong();
    private volatile boolean healthy = true;
    private volatile boolean resync;
    private volatile boolean stopped;
    private volatile boolean draining;
    /**
     * Whether the current controller keeps work signals: what it said in its last answer to a registration, or what
     * its answer to a batch of signals showed (for a client that registers nothing); null while unknown, and then
     * signals are sent.
     */
    private volatile Boolean takesSignals;
    private boolean toldOldController;
    private volatile long heartbeatIntervalNanos = TimeUnit.SECONDS.toNanos(5);
    private volatile long nextHeartbeat = System.nanoTime() + heartbeatIntervalNanos;
    private volatile boolean heartbeating;
    private long backoffMillis;

    Sender(SabaClient client, List<ManagedChannel> channels, ClientConfig config) {
        this.client = client;
        this.stubs = channels.stream().map(ControllerGrpc::newBlockingStub).toList();
        this.targets = config.targets();
        this.config = config;
        this.backoffMillis = config.initialBackoff().toMillis();
    }

    String currentTarget() {
        return targets.get(current);
    }

    boolean healthy() {
        return healthy;
    }

    boolean controllerTakesSignals() {
        return Boolean.TRUE.equals(takesSignals);
    }

    /** See {@link SabaClient#untilLevelNews()}. */
    long nanosUntilLevelNews() {
        if (!healthy || resync || heartbeating) {
            return 0;
        }
        return Math.max(0, nextHeartbeat - System.nanoTime());
    }

    long outageWarnings() {
        return outageWarnings.get();
    }

    void requestResync() {
        resync = true;
    }

    void stop() {
        stopped = true;
    }

    /** Finish what is queued (a deregistration just before close, say), then stop; gives up while unhealthy. */
    void drainThenStop() {
        draining = true;
        client.queue().offer(new SabaClient.Op.Wake()); // ends a poll that would otherwise wait for a heartbeat
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                if (draining && (!healthy || client.queue().isEmpty())) {
                    return;
                }
                if (!healthy || resync) {
                    resyncAll();
                    continue;
                }
                if (System.nanoTime() >= nextHeartbeat) {
                    heartbeatAll();
                }
                long waitNanos = draining ? 0 : Math.max(0, nextHeartbeat - System.nanoTime());
                SabaClient.Op first = client.queue().poll(waitNanos, TimeUnit.NANOSECONDS);
                if (first != null) {
                    process(withFollowers(first));
                }
            } catch (InterruptedException e) {
                if (stopped) {
                    return;
                }
            } catch (StatusRuntimeException e) {
                failed(e);
            } catch (RuntimeException e) {
                // never let a bug kill the thread the application's state depends on
                LOG.error("Saba client sender: unexpected error; re-syncing", e);
                failed(Status.INTERNAL.withCause(e).asRuntimeException());
            }
        }
    }

    /**
     * The first op and what follows it within {@link #LINGER_NANOS}: what an application reports at once (an
     * executor's connections, a socket's two directions) goes in one call, and so reaches the controller's same
     * recomputation round, instead of the first event alone and the rest a round trip later.
     */
    private List<SabaClient.Op> withFollowers(SabaClient.Op first) throws InterruptedException {
        List<SabaClient.Op> ops = new ArrayList<>();
        ops.add(first);
        long until = System.nanoTime() + LINGER_NANOS;
        while (ops.size() < config.maxBatch()) {
            client.queue().drainTo(ops, config.maxBatch() - ops.size());
            long left = until - System.nanoTime();
            if (left <= 0 || draining || ops.size() >= config.maxBatch()) {
                break;
            }
            SabaClient.Op next = client.queue().poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                break;
            }
            ops.add(next);
        }
        return ops;
    }

    private ControllerGrpc.ControllerBlockingStub stub() {
        return stubs.get(current).withDeadlineAfter(config.deadline().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sends the ops in order: runs of connection events and work signals go in one ReportConnections call each, and
     * anything else (a registration, say) first flushes the run before it.
     */
    private void process(List<SabaClient.Op> ops) {
        Batch batch = new Batch();
        for (SabaClient.Op op : ops) {
            if (op instanceof SabaClient.Op.Event e) {
                if (!e.app().isDeregistered() && e.app().refusal() == null) {
                    batch.events.add(BatchedEvent.newBuilder().setOpen(e.open())
                            .setEvent(event(e.app().spec().appId(), e.key(), e.seq())).build());
                }
                continue;
            }
            if (op instanceof SabaClient.Op.Signals s) {
                signals(batch, s);
                continue;
            }
            flush(batch);
            if (op instanceof SabaClient.Op.Register r) {
                register(r.app());
            } else if (op instanceof SabaClient.Op.Deregister d) {
                deregister(d.app());
            } else if (op instanceof SabaClient.Op.WarmUp) {
                warmUp();
            }
        }
        flush(batch);
    }

    /** What one ReportConnections call carries. */
    private static final class Batch {
        final List<BatchedEvent> events = new ArrayList<>();
        final List<io.saba.proto.v1.WorkSignals> signals = new ArrayList<>();

        boolean isEmpty() {
            return events.isEmpty() && signals.isEmpty();
        }

        void clear() {
            events.clear();
            signals.clear();
        }
    }

    private void signals(Batch batch, SabaClient.Op.Signals s) {
        if (s.app() != null && (s.app().isDeregistered() || s.app().refusal() != null)) {
            return;
        }
        if (Boolean.FALSE.equals(takesSignals)) {
            // an older controller (contract revision 1) would ignore them: spare the bytes
            client.signalsDropped(1);
            tellOldController();
            return;
        }
        batch.signals.add(SignalsProto.toProto(s.appId(), s.signals()));
        if (batch.signals.size() >= MAX_SIGNALS) {
            flush(batch);
        }
    }

    private void tellOldController() {
        if (!toldOldController) {
            toldOldController = true;
            LOG.info("Saba controller at {} predates work signals (contract revision 1); the client does not send "
                    + "them", currentTarget());
        }
    }

    /**
     * What an answer to a batch that carried signals shows, for a client that learnt nothing from a registration:
     * a controller of revision 2 or later accounts for each signal, kept or rejected; revision 1 skips the field
     * unread, so it keeps none and rejects fewer than were sent (only events).
     */
    private void learnFromAck(int sent, EventAck ack) {
        if (sent == 0 || takesSignals != null) {
            return;
        }
        if (ack.getSignalsStored() > 0) {
            takesSignals = true;
        } else if (ack.getRejected() < sent) {
            takesSignals = false;
            tellOldController();
        }
    }

    /**
     * One cheap call (a status without connections): opens the channel, loads the RPC path's classes and completes
     * the handshake, so that the first registration does not pay for them. Fails like any call when the
     * controller is away.
     */
    private void warmUp() {
        long start = System.nanoTime();
        stub().status(StatusRequest.newBuilder().setIncludeConnections(false).build());
        LOG.debug("Saba controller at {} answered the warm-up call in {} ms", currentTarget(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private void deregister(SabaApplication app) {
        String id = app.spec().appId();
        if (app.refusal() != null) {
            return; // the controller never accepted it: nothing to take back
        }
        refusable("the deregistration of " + id,
                () -> stub().deregister(DeregisterRequest.newBuilder().setAppId(id).build()));
    }

    /**
     * Runs a call whose refusal of the request itself (bad input, another tenant's id) is logged and dropped: the
     * controller answered, so it is no outage, and retrying cannot help. Every other failure propagates.
     */
    private void refusable(String what, Runnable call) {
        try {
            call.run();
        } catch (StatusRuntimeException e) {
            if (!isRequestError(e.getStatus().getCode())) {
                throw e;
            }
            LOG.warn("Saba controller refused {}: {}", what, e.getStatus());
        }
    }

    private void flush(Batch batch) {
        if (batch.isEmpty()) {
            return;
        }
        EventAck[] answer = new EventAck[1];
        ConnectionBatch call = ConnectionBatch.newBuilder().addAllEvents(batch.events)
                .addAllSignals(batch.signals).build();
        try {
            refusable(batch.events.size() + " connection events and " + batch.signals.size() + " work signals",
                    () -> answer[0] = stub().reportConnections(call));
        } catch (StatusRuntimeException e) {
            // events live on in the applications' mirrors and are re-synced; signals have no mirror
            client.signalsDropped(call.getSignalsCount());
            throw e;
        } finally {
            batch.clear();
        }
        EventAck ack = answer[0];
        if (ack == null) {
            client.signalsDropped(call.getSignalsCount());
            return;
        }
        if (ack.getRejected() > 0) {
            LOG.debug("controller skipped {} connection events or work signals: {}", ack.getRejected(),
                    ack.getFirstRejection());
        }
        client.signalsDropped(call.getSignalsCount() - (int) Math.min(ack.getSignalsStored(),
                call.getSignalsCount()));
        learnFromAck(call.getSignalsCount(), ack);
        for (io.saba.proto.v1.RejectedConnection r : ack.getRejectedConnectionsList()) {
            SabaApplication app = client.application(r.getAppId());
            if (app != null) {
                app.connectionRejected(r.getReason());
            }
        }
        for (String appId : ack.getUnknownAppsList()) {
            SabaApplication app = client.application(appId);
            if (app != null && app.refusal() == null) {
                // the controller forgot it (lease expired while we were partitioned): register and replay
                register(app);
                sync(app);
            }
        }
    }

    private void register(SabaApplication app) {
        AppSpec s = app.spec();
        try {
            RegisterRequest req = RegisterRequest.newBuilder().setAppId(s.appId()).setWorkload(s.workload())
                    .setFramework(s.framework()).setUser(s.user()).setAttempt(s.attempt())
                    .setContractRevision(Contract.REVISION).build();
            RegisterResponse r = stub().register(req);
            takesSignals = Contract.takesSignals(r.getContractRevision());
            app.levelAssigned(r.getLevel());
            if (r.getLeaseMillis() > 0) {
                heartbeatIntervalNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(50, r.getLeaseMillis() / 3));
                nextHeartbeat = Math.min(nextHeartbeat, System.nanoTime() + heartbeatIntervalNanos);
            }
        } catch (StatusRuntimeException e) {
            if (isRequestError(e.getStatus().getCode())) {
                // retrying cannot help; the application runs at the default level
                LOG.error("Saba controller refused to register {}: {}; it runs at level 0 and its events are "
                        + "not sent", s.appId(), e.getStatus());
                app.refused(e.getStatus().toString());
                return;
            }
            throw e;
        }
    }

    private void sync(SabaApplication app) {
        SabaApplication.Snapshot snap = app.snapshot();
        SyncRequest.Builder b = SyncRequest.newBuilder().setAppId(app.spec().appId()).setSeq(snap.seq());
        for (ConnectionKey k : snap.open()) {
            b.addOpen(ConnectionProto.toProto(k));
        }
        refusable("the connections of " + app.spec().appId(), () -> stub().syncConnections(b.build()));
    }

    private void heartbeatAll() {
        nextHeartbeat = System.nanoTime() + heartbeatIntervalNanos;
        heartbeating = true;
        heartbeatEach();
        heartbeating = false; // a heartbeat that failed stays "under way" until failed() has marked the outage
    }

    private void heartbeatEach() {
        for (SabaApplication app : client.applications()) {
            if (app.refusal() != null) {
                continue;
            }
            try {
                HeartbeatResponse r = stub().heartbeat(
                        HeartbeatRequest.newBuilder().setAppId(app.spec().appId()).build());
                app.levelAssigned(r.getLevel());
            } catch (StatusRuntimeException e) {
                if (isRequestError(e.getStatus().getCode())) {
                    LOG.error("Saba controller refused the heartbeat of {}: {}; it runs at level 0 from now on",
                            app.spec().appId(), e.getStatus());
                    app.refused(e.getStatus().toString());
                    continue;
                }
                if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
                    throw e;
                }
                register(app);
                sync(app);
            }
        }
    }

    /** Sends queued deregistrations, forgets queued events (the mirrors hold them), registers and syncs everyone. */
    private void resyncAll() throws InterruptedException {
        if (!healthy) {
            Thread.sleep(jitter(backoffMillis));
            backoffMillis = Math.min(config.maxBackoff().toMillis(), backoffMillis * 2);
        }
        resync = false;
        client.overflowHandled();
        List<SabaClient.Op> pending = new ArrayList<>();
        client.queue().drainTo(pending);
        client.signalsDropped((int) pending.stream().filter(op -> op instanceof SabaClient.Op.Signals).count());
        Set<String> deregistered = new HashSet<>();
        try {
            for (SabaClient.Op op : pending) {
                if (op instanceof SabaClient.Op.Deregister d && deregistered.add(d.app().spec().appId())) {
                    deregister(d.app());
                }
            }
            if (client.applications().isEmpty()) {
                warmUp(); // nobody to re-register: still, "reachable" must mean the controller answered
            }
            for (SabaApplication app : client.applications()) {
                register(app);
                if (app.refusal() == null) {
                    sync(app);
                }
            }
        } catch (StatusRuntimeException e) {
            // put the deregistrations back so the next attempt sends them
            for (SabaClient.Op op : pending) {
                if (op instanceof SabaClient.Op.Deregister) {
                    client.queue().offer(op);
                }
            }
            failed(e);
            return;
        }
        if (!healthy) {
            LOG.info("Saba controller at {} is reachable again; {} applications re-registered and re-synced",
                    currentTarget(), client.applications().size());
        }
        healthy = true;
        backoffMillis = config.initialBackoff().toMillis();
        nextHeartbeat = System.nanoTime() + heartbeatIntervalNanos;
    }

    private void failed(StatusRuntimeException e) {
        takesSignals = null; // the controller that answers next may be another one, or another version
        if (stubs.size() > 1) {
            // several controllers (a group): the next attempt, a full re-sync, goes to the next one
            current = (current + 1) % stubs.size();
        }
        if (healthy) {
            healthy = false;
            outageWarnings.incrementAndGet();
            LOG.warn("Saba controller at {} unreachable ({}); applications keep their last level (0 if never "
                    + "assigned) and the client retries in the background", config.target(), e.getStatus());
        } else {
            LOG.debug("Saba controller still unreachable: {}", e.getStatus());
        }
        for (SabaApplication app : client.applications()) {
            app.unreachable();
        }
        heartbeating = false;
    }

    private static boolean isRequestError(Status.Code c) {
        return c == Status.Code.INVALID_ARGUMENT || c == Status.Code.PERMISSION_DENIED
                || c == Status.Code.ALREADY_EXISTS || c == Status.Code.FAILED_PRECONDITION;
    }

    private static long jitter(long millis) {
        return millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
    }

    static ConnectionEvent event(String appId, ConnectionKey k, long seq) {
        return ConnectionEvent.newBuilder().setAppId(appId).setConnection(ConnectionProto.toProto(k)).setSeq(seq).build();
    }
}
