package io.saba.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The group benchmark, small, on three real ZooKeeper servers: one warm-up pass, then every configuration through
 * every phase, each row with figures (a phase that measured nothing would print NaN).
 */
class GroupBenchTest {
    @Test
    void everyConfigurationRunsEveryPhase() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new GroupBench(new GroupBench.Settings(10, 400, 4, 50, "fat-tree:4", 2, 2_000, 2, 1),
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("warm-up pass 1: the JIT compilers took"), out);
        assertFalse(out.contains("warm-up pass 2"), "at most the passes asked for: " + out);
        for (String config : new String[] {"lone controller", "1 member", "2 members", "3 members"}) {
            assertTrue(Pattern.compile("(?m)^" + config + " +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms"
                    + " +[0-9]+ +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+ ms$").matcher(out).find(), config + ": " + out);
        }
        assertFalse(out.contains("WARNING"), out);
    }
}
