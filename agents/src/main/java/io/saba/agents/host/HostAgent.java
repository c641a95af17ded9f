package io.saba.agents.host;

import io.grpc.ChannelCredentials;
import io.grpc.Context;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import io.saba.controller.StartupException;
import io.saba.controller.journal.JournalLock;
import io.saba.process.CommandRunner;
import io.saba.proto.v1.AgentAnnounce;
import io.saba.proto.v1.AgentsGrpc;
import io.saba.proto.v1.HostPlan;
import io.saba.proto.v1.PlanAck;
import io.saba.proto.v1.PortQueueBytes;
import io.saba.proto.v1.WatchPlansRequest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code saba agent}: enforces the controller's plan on this host's NICs. It announces the host, watches the
 * host's plans (trying each controller address in turn), applies each with {@link PlanApplier} and acknowledges
 * the version with the ports it refused and its queues' byte counters, and acknowledges again about once a second
 * (a failed acknowledgement ends the watch: the controller is taken as unreachable).
 *
 * <p>A controller group's members each serve the agents of the hosts they hold: another member refuses the agent,
 * and the member that held the host ends the stream when it hands the host over, so the agent moves on through its
 * controllers until the member holding its host takes it, which sends the host's whole plan. Versions are compared
 * only within one stream (each member numbers its own); an acknowledgement goes to the member whose stream sent the
 * version.
 *
 * <p>Lease: while no controller is reachable the NICs keep the last plan; after the lease the agent restores their
 * originals (one log line) and keeps trying. Whatever it reconnects to sends the host's whole current plan first, so
 * a reconnect, a restart or a killed agent's leftovers converge to the controller's plan.
 */
public final class HostAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostAgent.class);
    private static final long ACK_DEADLINE_MILLIS = 2000;
    /** The pause before trying the next controller after a session ended or a controller did not serve this host. */
    private static final long NEXT_CONTROLLER_MILLIS = 50;

    private final AgentSettings s;
    private final PlanApplier applier;
    private final JournalLock lock;
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "saba-agent-timer");
        t.setDaemon(true);
        return t;
    });
    private final Thread loop = new Thread(this::run, "saba-agent");
    private final Object applying = new Object();
    private volatile boolean closed;
    private volatile boolean connected;
    private volatile long lostAt = System.nanoTime();
    private volatile AgentsGrpc.AgentsBlockingStub current;
    private volatile Context.CancellableContext session;
    private long appliedVersion;
    private Map<Integer, String> refused = Map.of();
    private boolean restored;
    private String lastDrift = "";
    private Map<Integer, Map<Integer, Long>> lastCounters = Map.of();
    private int restores;

    private HostAgent(AgentSettings s, CommandRunner shell) {
        this.s = s;
        this.lock = lockStateDir(s.stateDir());
        new AgentState(s.host(), s.nics(), s.netns()).save(s.stateDir());
        this.applier = new PlanApplier(s.host(), s.nics(), s.netns(), s.stateDir(), shell);
        Metadata headers = new Metadata();
        if (s.token() != null) {
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + s.token());
        }
        ChannelCredentials credentials = credentials(s.tlsTrust());
        for (String target : s.controllers()) {
            channels.add(Grpc.newChannelBuilder(target, credentials)
                    .intercept(MetadataUtils.newAttachHeadersInterceptor(headers)).build());
        }
    }

    private static ChannelCredentials credentials(java.nio.file.Path trust) {
        if (trust == null) {
            return InsecureChannelCredentials.create();
        }
        try {
            return TlsChannelCredentials.newBuilder().trustManager(trust.toFile()).build();
        } catch (java.io.IOException | RuntimeException e) {
            throw new IllegalArgumentException("--tls-trust " + trust + ": cannot read the certificates ("
                    + e.getMessage() + ")", e);
        }
    }

    /**
     * Takes the state directory for this process (one agent, or one {@code saba agent restore}, at a time).
     *
     * @throws StartupException naming the directory and its holder
     */
    public static JournalLock lockStateDir(java.nio.file.Path dir) {
        try {
            return JournalLock.acquire(dir);
        } catch (StartupException e) {
            throw new StartupException(e.getMessage().replace("journal-dir", "--state-dir")
                    .replace("another controller", "another saba agent"));
        }
    }

    /** Starts the agent (it connects in the background). */
    public static HostAgent start(AgentSettings s, CommandRunner shell) {
        HostAgent a = new HostAgent(s, shell);
        a.loop.start();
        a.timer.scheduleWithFixedDelay(a::tick, 200, 200, TimeUnit.MILLISECONDS);
        a.timer.scheduleWithFixedDelay(a::ackNow, 1, 1, TimeUnit.SECONDS);
        LOG.info("saba agent for host {} on {}, controllers {}, lease {} s, state in {}", s.host(), s.nics(),
                s.controllers(), s.lease().toSeconds(), s.stateDir());
        return a;
    }

    /**
     * Tries the controllers in turn. A session that ends (the controller stopped, or a group member handed this host
     * to another member) and a controller that does not serve this host (a member that does not hold it answers
     * FAILED_PRECONDITION or UNAVAILABLE) send the agent to the next controller at once; only a whole round of
     * controllers without a session backs off (200 ms doubling to 2 s), so a hand-over costs the agent a few calls,
     * not a back-off per member.
     */
    private void run() {
        long backoff = 200;
        int failedInRow = 0;
        String lastRefusal = null;
        for (int i = 0; !closed; i++) {
            String target = s.controllers().get(i % channels.size());
            try {
                watch(AgentsGrpc.newBlockingStub(channels.get(i % channels.size())));
            } catch (StatusRuntimeException e) {
                io.grpc.Status.Code code = e.getStatus().getCode();
                if (!closed) {
                    LOG.debug("controller {}: {}", target, e.getStatus());
                }
                if (code == io.grpc.Status.Code.PERMISSION_DENIED || code == io.grpc.Status.Code.UNAUTHENTICATED) {
                    LOG.warn("controller {} refused this agent: {}", target, e.getStatus().getDescription());
                } else if (code == io.grpc.Status.Code.INVALID_ARGUMENT && !closed) {
                    // the controller's topology from agents refused this host's announcement: said once per answer
                    String why = target + ": " + e.getStatus().getDescription();
                    if (!why.equals(lastRefusal)) {
                        LOG.warn("controller {}", why);
                        lastRefusal = why;
                    }
                } else if (code == io.grpc.Status.Code.FAILED_PRECONDITION && !closed) {
                    // a group member that does not hold this host: said once per answer, not once per try
                    String why = target + ": " + e.getStatus().getDescription();
                    if (!why.equals(lastRefusal)) {
                        LOG.info("controller {}; trying the next", why);
                        lastRefusal = why;
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("agent session failed: {}", e.toString());
            }
            boolean hadSession = connected;
            lost();
            if (hadSession) {
                failedInRow = 0;
                backoff = 200;
                lastRefusal = null;
            } else {
                failedInRow++;
            }
            if (hadSession || failedInRow % channels.size() != 0) {
                sleep(NEXT_CONTROLLER_MILLIS);
            } else {
                sleep(backoff);
                backoff = Math.min(backoff * 2, 2000);
            }
        }
    }

    /** One session with one controller: announce, then apply and acknowledge each plan until the stream ends. */
    private void watch(AgentsGrpc.AgentsBlockingStub stub) {
        AgentAnnounce.Builder hello = AgentAnnounce.newBuilder().setHost(s.host());
        for (NicSpec n : s.nics()) {
            hello.addNics(applier.nicInfo().describe(n.device(),
                    n.rateBps() > 0 ? n.rateBps() : applier.nicInfo().speedBps(n.device())));
        }
        stub.withDeadlineAfter(5, TimeUnit.SECONDS).announce(hello.build());
        Context.CancellableContext ctx = Context.current().withCancellation();
        session = ctx;
        try {
            ctx.run(() -> {
                Iterator<HostPlan> plans = stub.watchPlans(WatchPlansRequest.newBuilder().setHost(s.host()).build());
                while (plans.hasNext()) {
                    HostPlan plan = plans.next();
                    synchronized (applying) { // the lease check sees the plan applied and the session up at once
                        apply(plan);
                        if (!connected) {
                            // only now: the periodic acknowledgement must never send an older session's version
                            connected = true;
                            current = stub;
                            LOG.info("watching the plans of {} (version {})", s.host(), plan.getVersion());
                        }
                    }
                    stub.withDeadlineAfter(ACK_DEADLINE_MILLIS, TimeUnit.MILLISECONDS).ackPlan(ack(false, null));
                }
            });
        } finally {
            session = null;
            ctx.cancel(null);
        }
    }

    private void apply(HostPlan plan) {
        synchronized (applying) {
            refused = applier.apply(plan);
            appliedVersion = plan.getVersion();
            restored = false;
            refused.forEach((port, why) -> LOG.warn("port {} of {} refused: {}", port, s.host(), why));
        }
    }

    /**
     * The acknowledgement of the version applied. With {@code read}, the NICs' counters and drift are read now (the
     * periodic acknowledgement); without, the last reading goes along, so a plan's acknowledgement runs no tc and the
     * next plan waits for nothing but the controller. The reading is taken outside the plan lock, so a plan never
     * waits for it either; a drift read while a plan was being applied is discarded (it may show half a plan).
     *
     * @param to the session's controller the acknowledgement is for, or null for the plan just applied: null is
     *           returned when another session's plan is applied by now (its version means nothing to {@code to})
     */
    private PlanAck ack(boolean read, AgentsGrpc.AgentsBlockingStub to) {
        long version;
        Map<Integer, String> refusedNow;
        synchronized (applying) {
            if (to != null && current != to) {
                return null;
            }
            version = appliedVersion;
            refusedNow = refused;
        }
        if (read) {
            Map<Integer, Map<Integer, Long>> counters = applier.counters();
            String drift = applier.drift(counters);
            synchronized (applying) {
                lastCounters = counters;
                if (appliedVersion == version) {
                    if (!drift.isEmpty() && !drift.equals(lastDrift)) {
                        LOG.warn("the NICs of {} differ from the plan: {}", s.host(), drift);
                    }
                    lastDrift = drift;
                }
            }
        }
        PlanAck.Builder b = PlanAck.newBuilder().setHost(s.host()).setVersion(version).putAllPortErrors(refusedNow);
        synchronized (applying) {
            lastCounters.forEach((port, q) -> b.addCounters(PortQueueBytes.newBuilder().setPort(port)
                    .putAllQueueBytes(q)));
            return b.setDrift(lastDrift).build();
        }
    }

    /** The periodic acknowledgement (counters); failing, it ends the session. */
    private void ackNow() {
        AgentsGrpc.AgentsBlockingStub stub = current;
        Context.CancellableContext ctx = session;
        if (!connected || stub == null || ctx == null) {
            return;
        }
        try {
            PlanAck ack = ack(true, stub);
            if (ack == null) {
                return; // the session moved to another controller meanwhile
            }
            stub.withDeadlineAfter(ACK_DEADLINE_MILLIS, TimeUnit.MILLISECONDS).ackPlan(ack);
        } catch (StatusRuntimeException e) {
            LOG.info("controller did not take an acknowledgement ({}); reconnecting", e.getStatus().getCode());
            ctx.cancel(e);
        } catch (RuntimeException e) {
            LOG.warn("periodic acknowledgement failed: {}", e.toString());
        }
    }

    private void lost() {
        if (connected) {
            connected = false;
            current = null;
            lostAt = System.nanoTime();
            LOG.info("lost the controller; the NICs keep the plan for the lease ({} s)", s.lease().toSeconds());
        }
    }

    /** Restores the NICs once a lease passed without a controller. */
    private void tick() {
        try {
            if (connected || System.nanoTime() - lostAt < s.lease().toNanos()) {
                return;
            }
            synchronized (applying) {
                if (restored || connected || !applier.holdsSomething()) {
                    return;
                }
                Map<?, String> failed = applier.restore();
                restored = true;
                restores++;
                appliedVersion = 0;
                refused = Map.of();
                LOG.warn("no controller reachable for {} s: the NICs of {} are back to their original configuration{}"
                        + "; still trying to reconnect", s.lease().toSeconds(), s.host(),
                        failed.isEmpty() ? "" : " except " + failed);
            }
        } catch (RuntimeException e) {
            LOG.warn("restoring the NICs after the lease failed: {}", e.toString());
        }
    }

    /** Whether a controller's plan stream is open now. */
    public boolean connected() {
        return connected;
    }

    /** The version of the plan applied last (0: none since start or since the NICs were restored). */
    public long appliedVersion() {
        synchronized (applying) {
            return appliedVersion;
        }
    }

    /** How many times a lease ran out and the NICs were restored. */
    public int restores() {
        synchronized (applying) {
            return restores;
        }
    }

    /** Stops: the NICs get their originals back (see {@link PlanApplier#close}). */
    @Override
    public void close() {
        closed = true;
        Context.CancellableContext ctx = session;
        if (ctx != null) {
            ctx.cancel(null);
        }
        loop.interrupt();
        try {
            loop.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        timer.shutdownNow();
        channels.forEach(ManagedChannel::shutdownNow);
        synchronized (applying) {
            applier.close();
        }
        lock.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
