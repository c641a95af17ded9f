package io.saba.client;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.DeregisterRequest;
import io.saba.proto.v1.Endpoint;
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
    private volatile long heartbeatIntervalNanos = TimeUnit.SECONDS.toNanos(5);
    private long nextHeartbeat = System.nanoTime() + heartbeatIntervalNanos;
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

    private void process(List<SabaClient.Op> ops) {
        List<BatchedEvent> batch = new ArrayList<>();
        for (SabaClient.Op op : ops) {
            if (op instanceof SabaClient.Op.Event e) {
                if (!e.app().isDeregistered() && e.app().refusal() == null) {
                    batch.add(BatchedEvent.newBuilder().setOpen(e.open())
                            .setEvent(event(e.app().spec().appId(), e.key(), e.seq())).build());
                }
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

    private void flush(List<BatchedEvent> batch) {
        if (batch.isEmpty()) {
            return;
        }
        EventAck[] answer = new EventAck[1];
        refusable(batch.size() + " connection events", () -> answer[0] =
                stub().reportConnections(ConnectionBatch.newBuilder().addAllEvents(batch).build()));
        batch.clear();
        EventAck ack = answer[0];
        if (ack == null) {
            return;
        }
        if (ack.getRejected() > 0) {
            LOG.debug("controller skipped {} connection events: {}", ack.getRejected(), ack.getFirstRejection());
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
                    .setFramework(s.framework()).setUser(s.user()).setAttempt(s.attempt()).build();
            RegisterResponse r = stub().register(req);
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
            b.addOpen(connection(k));
        }
        refusable("the connections of " + app.spec().appId(), () -> stub().syncConnections(b.build()));
    }

    private void heartbeatAll() {
        nextHeartbeat = System.nanoTime() + heartbeatIntervalNanos;
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
    }

    private static boolean isRequestError(Status.Code c) {
        return c == Status.Code.INVALID_ARGUMENT || c == Status.Code.PERMISSION_DENIED
                || c == Status.Code.ALREADY_EXISTS || c == Status.Code.FAILED_PRECONDITION;
    }

    private static long jitter(long millis) {
        return millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
    }

    static ConnectionEvent event(String appId, ConnectionKey k, long seq) {
        return ConnectionEvent.newBuilder().setAppId(appId).setConnection(connection(k)).setSeq(seq).build();
    }

    static Connection connection(ConnectionKey k) {
        return Connection.newBuilder()
                .setSrc(Endpoint.newBuilder().setIp(k.srcIp()).setPort(k.srcPort()))
                .setDst(Endpoint.newBuilder().setIp(k.dstIp()).setPort(k.dstPort()))
                .setTransport(k.transport() == Transport.RDMA
                        ? io.saba.proto.v1.Transport.RDMA : io.saba.proto.v1.Transport.TCP)
                .build();
    }
}
