package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's rate hook as a real shell. */
class CommandHookRateLimiterTest {
    @Test
    void theLevelReachesTheHookInItsWordsAndItsEnvironment(@TempDir Path dir) throws Exception {
        Path seen = dir.resolve("seen");
        new CommandHookRateLimiter("echo {percent} {fraction} $SABA_RATE_PERCENT $SABA_RATE_FRACTION > " + seen,
                null, Duration.ofSeconds(10)).apply(12.5);
        assertEquals("12.5 0.125 12.5 0.125\n", Files.readString(seen));
    }

    @Test
    void aHookThatHangsStopsTheProfileAtItsTimeout() {
        CommandHookRateLimiter hung = new CommandHookRateLimiter("sleep 60; echo never", null, Duration.ofSeconds(1));
        IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(IllegalStateException.class, () -> hung.apply(50)));
        assertTrue(e.getMessage().startsWith("rate hook did not finish in PT1S at 50 %"), e.getMessage());
    }
}
