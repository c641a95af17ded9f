package io.saba.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.journal.FsyncPolicy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scale benchmark on a small fabric: what it prints describes a state the restart rebuilt whole. */
class ScaleBenchTest {
    @Test
    void theRestartReplaysEveryConnectionAndAllocatesTheSamePorts(@TempDir Path journal) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new ScaleBench(new ScaleBench.Settings(50, 3_000, "fat-tree:4", 250, journal, FsyncPolicy.NEVER),
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("opened 3,000 connections"), out);
        Matcher restart = Pattern.compile("restart: .*: 50 applications, 3,000 connections; .*: ([0-9,]+) ports")
                .matcher(out);
        assertTrue(restart.find(), out);
        assertFalse(out.contains("DIFFERS"), out);
        assertTrue(Pattern.compile("[0-9,.]+ bytes per application, [0-9,.]+ bytes per connection").matcher(out).find(),
                out);
    }
}
