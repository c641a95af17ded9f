package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A qperf that never answers is killed at the timeout, not waited for. */
class QperfTimeoutTest {
    @Test
    void aHungQperfIsTimedOut() {
        // a real child that holds its output open and never finishes, as a qperf waiting on a dead server does
        List<String> hung = List.of("sh", "-c", "echo starting; sleep 60");
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(IOException.class, () -> Qperf.run(hung, Duration.ofSeconds(1))));
        assertTrue(e.getMessage().contains("did not finish within"), e.getMessage());
        assertTrue(e.getMessage().contains("starting"), e.getMessage());
    }
}
