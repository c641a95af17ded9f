package io.saba.core.progress;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A long run's progress: done / total, percent, time elapsed and an estimate of the time left. On a terminal one line
 * updated in place (carriage return, at most once a second); elsewhere (a pipe, a log file, CI) plain lines, so
 * nothing is glued into one line: at most one every {@link #MIN_GAP_NANOS}, printed when another tenth of the run is
 * done or {@link #QUIET_NANOS} passed without a line, and always the last one.
 */
public final class Progress {
    /** How progress is shown. */
    public enum Style {
        /** One line, redrawn with a carriage return. */
        TERMINAL,
        /** Newline-terminated lines at a bounded rate. */
        LINES,
        /** Nothing. */
        OFF;

        /** The system property that overrides detection ({@code saba --progress} sets it). */
        public static final String PROPERTY = "saba.progress";

        /**
         * {@code saba.progress} when set (terminal, lines, off), else TERMINAL when the JVM has a console (standard
         * input and output are a terminal) and LINES when not.
         */
        public static Style detect() {
            String forced = System.getProperty(PROPERTY);
            if (forced != null && !forced.isBlank() && !forced.equalsIgnoreCase("auto")) {
                return parse(forced, PROPERTY);
            }
            return System.console() != null ? TERMINAL : LINES;
        }

        /** "terminal", "lines" or "off", any case; {@code what} names the input in the error. */
        public static Style parse(String s, String what) {
            for (Style v : values()) {
                if (v.name().equalsIgnoreCase(s.strip())) {
                    return v;
                }
            }
            throw new IllegalArgumentException(what + " must be auto, terminal, lines or off, got '" + s + "'");
        }
    }

    static final long REDRAW_NANOS = 1_000_000_000L;
    static final long MIN_GAP_NANOS = 2_000_000_000L;
    static final long QUIET_NANOS = 30_000_000_000L;

    private final PrintStream out;
    private final String label;
    private final int total;
    private final int alreadyDone;
    private final Style style;
    private final LongSupplier nanos;
    private final long start;
    private int done;
    private long lastPrint;
    private int lastPrintedDone;
    private int drawnLength;

    /** Progress on {@code out} (null: none) in the detected style. */
    public Progress(PrintStream out, String label, int total, int alreadyDone) {
        this(out, label, total, alreadyDone, Style.detect(), System::nanoTime);
    }

    /**
     * @param alreadyDone steps done before this run (a resumed campaign); they count toward done, not the rate
     * @param nanos       the clock
     */
    public Progress(PrintStream out, String label, int total, int alreadyDone, Style style, LongSupplier nanos) {
        this.out = out;
        this.label = label;
        this.total = total;
        this.alreadyDone = alreadyDone;
        this.done = alreadyDone;
        this.lastPrintedDone = alreadyDone;
        this.style = out == null ? Style.OFF : style;
        this.nanos = nanos;
        this.start = nanos.getAsLong();
        this.lastPrint = start;
    }

    /** One step done. */
    public synchronized void step() {
        done++;
        long now = nanos.getAsLong();
        boolean last = done >= total;
        switch (style) {
            case TERMINAL -> {
                if (last || now - lastPrint >= REDRAW_NANOS) {
                    String line = status(now);
                    // spaces over whatever a longer previous line left on the terminal
                    out.print("\r" + line + " ".repeat(Math.max(0, drawnLength - line.length())));
                    drawnLength = line.length();
                    if (last) {
                        out.println();
                    }
                    out.flush();
                    lastPrint = now;
                }
            }
            case LINES -> {
                boolean tenth = (long) (done - lastPrintedDone) * 10 >= total;
                boolean due = now - lastPrint >= QUIET_NANOS || (tenth && now - lastPrint >= MIN_GAP_NANOS);
                if (last || due) {
                    out.println(status(now));
                    out.flush();
                    lastPrint = now;
                    lastPrintedDone = done;
                }
            }
            case OFF -> {
            }
        }
    }

    /** "label: 250/500 (50 %), 31 s elapsed, about 31 s left", as of now. */
    public synchronized String status() {
        return status(nanos.getAsLong());
    }

    /** "label: 250/500 (50 %), 31 s elapsed, about 31 s left". */
    String status(long now) {
        double elapsed = (now - start) / 1e9;
        int ranNow = done - alreadyDone;
        String left = done >= total ? "done" : ranNow == 0 ? "" : "about " + duration(elapsed / ranNow * (total - done))
                + " left";
        return String.format(Locale.ROOT, "%s: %d/%d (%d %%), %s elapsed%s", label, done, total,
                total == 0 ? 100 : 100L * done / total, duration(elapsed), left.isEmpty() ? "" : ", " + left);
    }

    /** "42 s", "3 min 05 s", "1 h 02 min". */
    public static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, s / 60 % 60);
    }
}
