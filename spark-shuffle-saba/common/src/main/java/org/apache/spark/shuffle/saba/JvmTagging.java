package org.apache.spark.shuffle.saba;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM's share of the application's sockets (the driver's or an executor's): a {@link SocketTagger} hooked into
 * each of the JVM's Spark transports, a thread that keeps the tag equal to the application's current level, and
 * the hand-off of connection reports off Netty's threads.
 *
 * <p>Nothing here can fail the JVM: a transport that cannot be hooked costs its traffic's priority, not the job,
 * and says so once.
 */
final class JvmTagging implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JvmTagging.class);

    private final String role;
    private final ScheduledExecutorService thread;
    private final SocketTagger tagger;
    private final List<TransportHooks.Hooked> hooks = new ArrayList<>();

    /**
     * @param role       "driver" or "executor N", for the log
     * @param tos        the TOS to start with
     * @param currentTos the application's TOS now, or a negative value when unknown (kept as it is); asked every
     *                   {@code refresh} on this class's own thread
     * @param report     gets connection events, on this class's own thread
     */
    JvmTagging(String role, int tos, IntSupplier currentTos, Duration refresh,
               Consumer<List<Messages.ConnectionEvent>> report) {
        this.role = role;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "saba-tagging");
            t.setDaemon(true);
            return t;
        });
        this.tagger = new SocketTagger(tos, events -> {
            try {
                thread.execute(() -> report.accept(events));
            } catch (RejectedExecutionException closing) {
                // a connection closed while this JVM leaves: its application is deregistering anyway
            }
        });
        long every = refresh.toMillis();
        thread.scheduleWithFixedDelay(() -> follow(currentTos), every, every, TimeUnit.MILLISECONDS);
    }

    /** Tags what {@code transport} (Spark's RPC environment or block-transfer service) accepts and opens. */
    void hook(String what, Object transport, SocketTagger.Reporting accepted, SocketTagger.Reporting opened) {
        try {
            TransportHooks.Hooked h = TransportHooks.hook(transport, tagger, accepted, opened);
            synchronized (hooks) {
                hooks.add(h);
            }
            LOG.info("Saba: {} tags its {} connections with TOS {}{}", role, what, tagger.tos(),
                    h.listening() == null ? "" : " (accepting on " + h.listening().localAddress() + ")");
        } catch (RuntimeException e) {
            LOG.warn("Saba: {} cannot hook its {}; that traffic stays untagged: {}", role, what, e.toString());
        }
    }

    int tos() {
        return tagger.tos();
    }

    private void follow(IntSupplier currentTos) {
        try {
            int t = currentTos.getAsInt();
            if (t >= 0 && t != tagger.tos()) {
                LOG.info("Saba: {}: the application's TOS is now {} (was {}); re-tagging {} open connections", role,
                        t, tagger.tos(), tagger.liveConnections());
                tagger.retag(t);
            }
        } catch (RuntimeException e) {
            LOG.debug("Saba: {}: level refresh failed: {}", role, e.toString());
        }
    }

    /** Unhooks, reports the open connections closed, and stops the thread (waiting at most a second). */
    @Override
    public void close() {
        synchronized (hooks) {
            hooks.forEach(TransportHooks.Hooked::remove);
            hooks.clear();
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
