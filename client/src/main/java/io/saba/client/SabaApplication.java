package io.saba.client;

import io.saba.wire.Transport;
import io.saba.wire.ConnectionKey;
import io.saba.wire.WorkSignals;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A registered application as the client sees it: its current level and the mirror of its open connections (the
 * truth the client replays when the controller returns). Every method returns at once.
 */
public final class SabaApplication {
    private final SabaClient client;
    private final AppSpec spec;
    private final CompletableFuture<Integer> assigned = new CompletableFuture<>();
    private final Set<ConnectionKey> open = new HashSet<>();
    private volatile int level;
    private volatile boolean deregistered;
    private volatile boolean registered;
    private volatile String refusal;

    SabaApplication(SabaClient client, AppSpec spec) {
        this.client = client;
        this.spec = spec;
    }

    public AppSpec spec() {
        return spec;
    }

    /** The latest level the controller assigned; 0 (best effort) until it has, or while it is unreachable. */
    public int level() {
        return level;
    }

    /** The IP TOS byte for {@link #level()} under the client's DSCP map. */
    public int tos() {
        return client.dscpMap().tos(level);
    }

    /**
     * Completes with the level from the first answer to the registration, or with 0 as soon as the controller is
     * known to be unreachable. Never completes exceptionally.
     */
    public CompletableFuture<Integer> assigned() {
        return assigned;
    }

    /** Reports a connection whose bulk data flows from {@code src} to {@code dst}. */
    public void connectionOpened(InetSocketAddress src, InetSocketAddress dst, Transport transport) {
        ConnectionKey key = ConnectionKey.of(src, dst, transport);
        long seq;
        synchronized (this) {
            if (deregistered || !open.add(key)) {
                return;
            }
            seq = client.nextSeq();
        }
        client.enqueueEvent(this, true, key, seq);
    }

    /** Reports that a connection closed; unknown connections are ignored. */
    public void connectionClosed(InetSocketAddress src, InetSocketAddress dst, Transport transport) {
        ConnectionKey key = ConnectionKey.of(src, dst, transport);
        long seq;
        synchronized (this) {
            if (deregistered || !open.remove(key)) {
                return;
            }
            seq = client.nextSeq();
        }
        client.enqueueEvent(this, false, key, seq);
    }

    /**
     * Reports what a unit of the application's work (a stage, a task) spent and moved. Sent with the next batched
     * report to a controller that keeps signals (contract revision 2 or later); dropped, never queued without
     * bound, when the client's queue is full, while the controller is unreachable, or when it is older.
     */
    public void report(WorkSignals signals) {
        if (!deregistered && refusal == null) {
            client.enqueueSignals(spec.appId(), this, signals);
        }
    }

    /** Tells the controller the application ended; its connections go with it. */
    public void deregister() {
        synchronized (this) {
            if (deregistered) {
                return;
            }
            deregistered = true;
            open.clear();
        }
        client.enqueueDeregister(this);
    }

    private final java.util.concurrent.atomic.AtomicLong rejectedConnections = new java.util.concurrent.atomic.AtomicLong();
    private volatile String lastRejection;

    /**
     * The controller refused one of this application's connection reports (an endpoint outside its topology, such
     * as the 127.0.0.1 of a local job): said once per application at WARN, since every connection would repeat it.
     */
    void connectionRejected(String reason) {
        lastRejection = reason;
        if (rejectedConnections.getAndIncrement() == 0) {
            org.slf4j.LoggerFactory.getLogger(SabaApplication.class).warn("Saba controller refused a connection of"
                    + " application {}: {} (said once per application; the controller's /status counts them)",
                    spec.appId(), reason);
        }
    }

    /** Connection reports the controller refused as invalid. */
    public long rejectedConnections() {
        return rejectedConnections.get();
    }

    /** Why the controller refused the latest of them, or null. */
    public String lastRejection() {
        return lastRejection;
    }

    public synchronized int openConnections() {
        return open.size();
    }

    boolean isDeregistered() {
        return deregistered;
    }

    /**
     * True once the controller has accepted the registration (answered it with a level). False before its answer,
     * while it was never reachable, and when it refused the application ({@link #refusal()}).
     */
    public boolean registered() {
        return registered;
    }

    /** Why the controller refused to register this application (bad id, another tenant's id), or null. */
    public String refusal() {
        return refusal;
    }

    void refused(String why) {
        refusal = why;
        assigned.complete(level);
    }

    /**
     * The open set and a sequence number taken atomically with respect to this application's own events, so a
     * sync built from it never overtakes an event it does not contain.
     */
    synchronized Snapshot snapshot() {
        return new Snapshot(Set.copyOf(open), client.nextSeq());
    }

    record Snapshot(Set<ConnectionKey> open, long seq) {
    }

    void levelAssigned(int newLevel) {
        level = newLevel;
        registered = true;
        assigned.complete(newLevel);
    }

    /** The controller could not be reached: whoever waits gets the current (default) level now. */
    void unreachable() {
        assigned.complete(level);
    }
}
