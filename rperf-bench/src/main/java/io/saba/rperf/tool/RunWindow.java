package io.saba.rperf.tool;

import java.util.concurrent.CountDownLatch;

/**
 * The shared clock of one run: every generator waits for the same start, drops samples during the warm-up,
 * and stops at the same end, so their windows overlap and loads are really concurrent.
 */
public final class RunWindow {
    private final CountDownLatch ready;
    private final long warmupNanos;
    private final long durationNanos;
    private volatile long start;

    /** @param parties generators that will call {@link #awaitStart} */
    public RunWindow(int parties, double warmupSeconds, double durationSeconds) {
        this.ready = new CountDownLatch(parties);
        this.warmupNanos = (long) (warmupSeconds * 1e9);
        this.durationNanos = (long) (durationSeconds * 1e9);
    }

    /** Blocks until every generator is connected; the first to get through fixes the start time. */
    public void awaitStart() {
        ready.countDown();
        try {
            // a generator that failed to connect never counts down; do not hang the others for ever
            ready.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted before the run started", e);
        }
        synchronized (this) {
            if (start == 0) {
                start = System.nanoTime();
            }
        }
    }

    public boolean measuring(long nanoTime) {
        return nanoTime - start >= warmupNanos;
    }

    public boolean over() {
        return System.nanoTime() - start >= warmupNanos + durationNanos;
    }
}
