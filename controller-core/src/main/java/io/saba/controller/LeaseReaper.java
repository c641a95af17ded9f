package io.saba.controller;

import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.log.StateLog;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the registration of applications that stopped heartbeating: it finds them in the replica and writes their
 * expiry to the log, so the expiry is one decision applied like any other write. A lone controller runs one on a
 * timer; a controller group's leader calls {@link #reap} among its duties.
 */
public final class LeaseReaper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseReaper.class);

    private final ScheduledExecutorService timer;

    private LeaseReaper(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /** Reaps every quarter lease (10 ms to 1 s). */
    static LeaseReaper start(Replica replica, StateLog log) {
        ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "saba-lease-reaper");
            th.setDaemon(true);
            return th;
        });
        long period = Math.max(10, Math.min(1000, replica.leaseMillis() / 4));
        t.scheduleWithFixedDelay(() -> {
            try {
                reap(replica, log);
            } catch (RuntimeException e) {
                LOG.error("lease expiry failed", e);
            }
        }, period, period, TimeUnit.MILLISECONDS);
        return new LeaseReaper(t);
    }

    /**
     * One pass: logs the expiry of every application whose lease ran out.
     *
     * @return the applications expired (appId → tenant), empty when none
     */
    public static Map<String, String> reap(Replica replica, StateLog log) {
        Map<String, String> expired = replica.expiredApplications();
        if (!expired.isEmpty()) {
            log.write(new LogRequest.Expire(expired));
        }
        return expired;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
