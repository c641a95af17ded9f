package io.saba.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 21 part 4: progress on a terminal redraws one line; anywhere else it is lines at a bounded rate. */
class ProgressTest {
    /** A clock the test moves. */
    private static final class Clock {
        long now;
    }

    private static String run(Progress.Style style, int total, long stepNanos) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Clock clock = new Clock();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), "fig8 setups", total, 0, style,
                () -> clock.now);
        for (int i = 0; i < total; i++) {
            clock.now += stepNanos;
            p.step();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutATerminalItPrintsLinesAboutEveryTenth() {
        // 500 setups in 60 s, as the main job's campaign
        String out = run(Progress.Style.LINES, 500, 120_000_000L);
        assertFalse(out.contains("\r"), "no carriage returns off a terminal");
        List<String> lines = out.lines().toList();
        assertTrue(out.endsWith("\n"));
        assertTrue(lines.size() >= 9 && lines.size() <= 11, "about one line per tenth: " + lines);
        assertEquals("fig8 setups: 50/500 (10 %), 6 s elapsed, about 54 s left", lines.get(0));
        assertEquals("fig8 setups: 500/500 (100 %), 1 min 00 s elapsed, done", lines.get(lines.size() - 1));
    }

    @Test
    void aFastRunIsOneLineAndASlowOneALineEveryHalfMinuteAtMost() {
        List<String> fast = run(Progress.Style.LINES, 1000, 1_000_000L).lines().toList();
        assertEquals(List.of("fig8 setups: 1000/1000 (100 %), 1 s elapsed, done"), fast,
                "never more than one line per 2 s");
        // 100 steps of 1 s: a tenth every 10 s, so a line every 10 s
        assertEquals(10, run(Progress.Style.LINES, 100, 1_000_000_000L).lines().count());
        // 20 steps of 1 min into 1,000: no tenth is ever done, but a line every half minute says it is alive
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Clock clock = new Clock();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), "corun", 1000, 0,
                Progress.Style.LINES, () -> clock.now);
        for (int i = 0; i < 20; i++) {
            clock.now += 60_000_000_000L;
            p.step();
        }
        assertEquals(20, bytes.toString(StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void onATerminalItRedrawsOneLineAndEndsIt() {
        String out = run(Progress.Style.TERMINAL, 500, 120_000_000L);
        assertEquals(1, out.chars().filter(c -> c == '\n').count(), "one line, ended once: " + out);
        assertTrue(out.endsWith("\n") && out.startsWith("\r"));
        long redraws = out.chars().filter(c -> c == '\r').count();
        assertTrue(redraws >= 55 && redraws <= 61, "at most one redraw a second over 60 s: " + redraws);
        // the last line is shorter than the one before: spaces cover the rest of the old one
        assertTrue(out.endsWith("\rfig8 setups: 500/500 (100 %), 1 min 00 s elapsed, done" + " ".repeat(3) + "\n"),
                out);
    }

    @Test
    void offAndNoStreamPrintNothing() {
        assertEquals("", run(Progress.Style.OFF, 10, 1_000_000_000L));
        new Progress(null, "x", 2, 0).step(); // no stream: nothing to write to, and no failure
    }

    @Test
    void aResumedRunCountsWhatWasDoneButEstimatesFromThisRun() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Clock clock = new Clock();
        Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), "fig8", 100, 80,
                Progress.Style.LINES, () -> clock.now);
        for (int i = 0; i < 10; i++) {
            clock.now += 3_000_000_000L;
            p.step();
        }
        assertEquals("fig8: 90/100 (90 %), 30 s elapsed, about 30 s left",
                bytes.toString(StandardCharsets.UTF_8).lines().reduce((a, b) -> b).orElseThrow());
    }

    @Test
    void theStyleComesFromThePropertyOrTheConsole() {
        assertEquals(Progress.Style.LINES, Progress.Style.parse(" Lines", "--progress"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Progress.Style.parse("sometimes", "--progress"));
        assertEquals("--progress must be auto, terminal, lines or off, got 'sometimes'", e.getMessage());
        String before = System.getProperty(Progress.Style.PROPERTY);
        try {
            System.setProperty(Progress.Style.PROPERTY, "off");
            assertEquals(Progress.Style.OFF, Progress.Style.detect());
            System.setProperty(Progress.Style.PROPERTY, "auto");
            // surefire's forked JVM has no console: standard output is a pipe
            assertEquals(System.console() == null ? Progress.Style.LINES : Progress.Style.TERMINAL,
                    Progress.Style.detect());
        } finally {
            if (before == null) {
                System.clearProperty(Progress.Style.PROPERTY);
            } else {
                System.setProperty(Progress.Style.PROPERTY, before);
            }
        }
    }

    @Test
    void durationsReadAsTime() {
        assertEquals("42 s", Progress.duration(42.2));
        assertEquals("3 min 05 s", Progress.duration(185));
        assertEquals("1 h 02 min", Progress.duration(3720));
    }
}
