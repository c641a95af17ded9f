package io.saba.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.journal.FsyncPolicy;
import io.saba.core.alloc.LevelMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-path benchmark, small: it warms up in passes that end (quiet or at the cap), then measures all four
 * phases over every connection and closes them all; a baseline is read back from its own output.
 */
class ControllerBenchTest {
    @Test
    void warmsUpThenMeasuresEveryPhaseAndClosesEveryConnection(@TempDir Path dir) throws Exception {
        String out = run(dir.resolve("journal"));
        Matcher passes = Pattern.compile("warm-up pass (\\d+): the JIT compilers took (\\d+) % of the process's CPU"
                + "(; not quiet yet, measuring anyway)?").matcher(out);
        int last = 0;
        boolean lastQuiet = false;
        while (passes.find()) {
            assertEquals(last + 1, Integer.parseInt(passes.group(1)), out);
            last = Integer.parseInt(passes.group(1));
            lastQuiet = passes.group(3) == null;
        }
        assertTrue(last >= 1 && last <= ControllerBench.MAX_WARM_UP_PASSES, out);
        assertTrue(lastQuiet || last == ControllerBench.MAX_WARM_UP_PASSES, "the warm-up stops when quiet: " + out);
        assertTrue(out.contains("connections open at peak: 400; after closing all: 0"), out);
        assertTrue(out.contains("collectors "), out);
        assertTrue(out.contains("level per application"), out);
        assertTrue(Pattern.compile("registered " + ControllerBench.LATE_APPS + " more applications with 400 connections "
                + "open: call p50 [0-9.]+ ms, p99 [0-9.]+ ms; [0-9.]+ ms until quiet").matcher(out).find(), out);
        for (String phase : new String[] {"unary-closed", "unary-open", "client-open", "batched"}) {
            assertTrue(Pattern.compile("(?m)^" + phase + " +[0-9]").matcher(out).find(), phase + ": " + out);
        }

        Path baseline = dir.resolve("baseline.txt");
        java.nio.file.Files.writeString(baseline, out);
        assertEquals(4, ControllerBench.readBaseline(baseline).size(), out);
    }

    @Test
    void aCommittedRunsOutputIsABaseline() throws Exception {
        // `saba controller bench` output kept under examples/: its main table, and the per-thread tables after it
        // (10 and 7 columns) that are not rows of it
        java.util.Map<String, double[]> rows = ControllerBench.readBaseline(
                Path.of("../examples/bench-2026-11-28/ctl-before-1.txt"));
        assertEquals(java.util.List.of("unary-closed", "unary-open", "client-open", "batched"),
                java.util.List.copyOf(rows.keySet()));
        assertArrayEquals(new double[] {7230, 7199, 2.546, 14.254, 86.311, 140.116, 198.8, 42.9, 9.90, 127.07, 7, 393},
                rows.get("unary-closed"), 0);
        assertArrayEquals(new double[] {54526, 47070, 33.276, 63.209, 71.303, 71.303, 32.2, 5.9, 145.36, 478.67, 0, 0},
                rows.get("batched"), 0);
    }

    private static String run(Path journal) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ControllerBench(new ControllerBench.Settings(20, 400, 8, 4_000, 50, "fat-tree:4", journal, null,
                FsyncPolicy.NEVER, 2, 2, Duration.ofMillis(1), null, LevelMode.APPLICATION),
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
