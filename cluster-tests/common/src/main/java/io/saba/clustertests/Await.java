package io.saba.clustertests;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Deadlines for what happens in other processes (never a timing assertion). */
public final class Await {
    private Await() {
    }

    /** Polls {@code condition} every 100 ms; an {@link AssertionError} naming {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }
}
