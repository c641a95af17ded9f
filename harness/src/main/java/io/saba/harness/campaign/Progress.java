package io.saba.harness.campaign;

import java.io.PrintStream;
import java.util.Locale;

/** Progress on a stream (stderr for the CLI): done / total, rate and estimated time left, at most once a second. */
public final class Progress {
    private final PrintStream out;
    private final String label;
    private final int total;
    private final long start = System.nanoTime();
    private int done;
    private long lastPrint;

    public Progress(PrintStream out, String label, int total, int alreadyDone) {
        this.out = out;
        this.label = label;
        this.total = total;
        this.done = alreadyDone;
    }

    public synchronized void step() {
        done++;
        long now = System.nanoTime();
        if (out != null && (now - lastPrint > 1_000_000_000L || done == total)) {
            lastPrint = now;
            double secs = (now - start) / 1e9;
            out.printf(Locale.ROOT, "\r%s: %d/%d (%.1f s elapsed)   ", label, done, total, secs);
            if (done == total) {
                out.println();
            }
            out.flush();
        }
    }
}
