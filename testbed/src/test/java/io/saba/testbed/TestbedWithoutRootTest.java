package io.saba.testbed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.shell.CommandResult;
import org.junit.jupiter.api.Test;

/** Runs anywhere: what a user without root is told. */
class TestbedWithoutRootTest {
    @Test
    void refusesWithAClearMessage() {
        Testbed t = new Testbed((command, stdin) -> command.get(0).equals("id")
                ? new CommandResult(command, 0, "1000\n", "")
                : new CommandResult(command, 1, "", "must not be reached"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.up(TestbedSpec.of("x", 2, 1_000_000L)));
        assertTrue(e.getMessage().contains("needs root") && e.getMessage().contains("1000"), e.getMessage());
    }
}
