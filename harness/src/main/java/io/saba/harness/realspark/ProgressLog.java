package io.saba.harness.realspark;

import io.saba.core.progress.Progress;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The campaign's progress as plain lines, one per event (job start and end, setup end), each stamped with the time
 * elapsed; setup lines add the campaign's {@link Progress} (done, total, the time left from the setups run so far).
 * Lines, not carriage returns, so a log file or a pipe reads the same as a terminal.
 */
public final class ProgressLog {
    private final PrintWriter out;
    private final LongSupplier nanos;
    private final long start;
    private final Progress setups;

    /**
     * @param total       setups in the campaign
     * @param alreadyDone setups found complete in the output folder
     * @param nanos       the clock (System::nanoTime)
     */
    public ProgressLog(PrintWriter out, int total, int alreadyDone, LongSupplier nanos) {
        this.out = out;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
        this.setups = new Progress(null, "setups", total, alreadyDone, Progress.Style.OFF, nanos);
    }

    /** An event line. */
    public synchronized void line(String message) {
        out.println("[" + clock((nanos.getAsLong() - start) / 1e9) + "] " + message);
        out.flush();
    }

    /** A setup finished: its summary, then done/total, elapsed and the estimated time left. */
    public synchronized void setupDone(int setup, String summary) {
        setups.step();
        line(String.format(Locale.ROOT, "setup %d done, %s; %s", setup, summary, setups.status()));
    }

    /** h:mm:ss. */
    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }
}
