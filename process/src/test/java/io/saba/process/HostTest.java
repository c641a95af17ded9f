package io.saba.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostTest {
    @Test
    void findsAToolOnThePathAndNotOneThatIsMissing() {
        assertTrue(Host.onPath("sh"));
        assertTrue(Files.isExecutable(Host.which("no-such-tool-saba", "sh").orElseThrow()));
        assertFalse(Host.onPath("no-such-tool-saba"));
        assertTrue(Host.which("no-such-tool-saba").isEmpty());
    }

    @Test
    void theUidIsWhatIdPrintsAndEmptyWhenIdFails() {
        assertEquals("1000", Host.uid((command, stdin) -> new CommandResult(command, 0, "1000\n", "")));
        assertEquals("", Host.uid((command, stdin) -> new CommandResult(command, 1, "0\n", "id: failed")));
        assertEquals(new ProcessRunner().run(List.of("id", "-u")).stdout().strip().equals("0"), Host.root());
    }
}
