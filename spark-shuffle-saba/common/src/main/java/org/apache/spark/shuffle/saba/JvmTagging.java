package org.apache.spark.shuffle.saba;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM's share of the application's sockets (the driver's or an executor's): a {@link SocketTagger} hooked into
 * each of the JVM's Spark transports, a thread that keeps the tag equal to the application's current level (asking
 * when it can have changed, not on a fixed beat), and the hand-off of connection reports off Netty's threads.
 *
 * <p>Nothing here can fail the JVM: a transport that cannot be hooked costs its traffic's priority, not the job,
 * and says so once.
 */
final class JvmTagging implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JvmTagging.class);

    /**
     * How long after the driver's next heartbeat a JVM asks: the heartbeat's answer must have arrived. One still under
     * way then is reported as such (news possible any moment), and the JVM asks again after {@code refresh}.
     */
    static final long NEWS_MARGIN_MILLIS = 250;
    /** Each JVM adds up to this much at random, so that an application's executors do not all ask at once. */
    static final long SPREAD_MILLIS = 250;
    /** The longest a JVM waits between two questions, whatever the driver expects. */
    static final long MAX_WAIT_MILLIS = 30_000;

    private final String role;
    private final ScheduledExecutorService thread;
    private final SocketTagger tagger;
    private final Supplier<Messages.TosAnswer> currentTos;
    private final long refreshMillis;
    private final List<TransportHooks.Hooked> hooks = new ArrayList<>();

    /**
     * @param role       "driver" or "executor N", for the log
     * @param tos        the TOS to start with
     * @param currentTos the application's TOS now and when it can next change, or null when unknown (the tag is
     *                   kept); asked on this class's own thread, right after each change can have happened
     *                   ({@link #nextAskMillis}) and at least every {@code refresh}
     * @param refresh    the shortest interval between two questions ({@code spark.saba.level.refresh})
     * @param report     gets connection events, on this class's own thread
     */
    JvmTagging(String role, int tos, Supplier<Messages.TosAnswer> currentTos, Duration refresh,
               Consumer<List<Messages.ConnectionEvent>> report) {
        this.role = role;
        this.currentTos = currentTos;
        this.refreshMillis = refresh.toMillis();
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
        askIn(refreshMillis);
    }

    /**
     * When to ask next, after {@code answer}: just after the driver's next chance to learn a new level, but not sooner
     * than {@code refreshMillis} nor later than {@link #MAX_WAIT_MILLIS}; after {@code refreshMillis} when there was
     * no answer. Levels of running applications change only at those chances (a heartbeat's answer, a registration
     * after the controller forgot the application), so asking more often only costs the driver's RPC threads.
     */
    static long nextAskMillis(Messages.TosAnswer answer, long refreshMillis, long spreadMillis) {
        if (answer == null) {
            return refreshMillis;
        }
        long wait = Math.min(MAX_WAIT_MILLIS, Math.max(0, answer.untilNewsMillis())) + NEWS_MARGIN_MILLIS
                + spreadMillis;
        return Math.max(refreshMillis, Math.min(MAX_WAIT_MILLIS, wait));
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

    private void askIn(long millis) {
        try {
            thread.schedule(this::follow, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // closed: nothing left to tag
        }
    }

    private void follow() {
        Messages.TosAnswer answer = null;
        try {
            answer = currentTos.get();
            if (answer != null && answer.tos() >= 0 && answer.tos() != tagger.tos()) {
                LOG.info("Saba: {}: the application's TOS is now {} (was {}); re-tagging {} open connections", role,
                        answer.tos(), tagger.tos(), tagger.liveConnections());
                tagger.retag(answer.tos());
            }
        } catch (RuntimeException e) {
            LOG.debug("Saba: {}: level refresh failed: {}", role, e.toString());
        } finally {
            askIn(nextAskMillis(answer, refreshMillis, ThreadLocalRandom.current().nextLong(SPREAD_MILLIS)));
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
