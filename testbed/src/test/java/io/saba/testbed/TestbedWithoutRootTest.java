package io.saba.testbed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.process.CommandResult;
import org.junit.jupiter.api.Test;

/** Runs anywhere: what a user without root, or without a tool the testbed runs, is told before anything is built. */
class TestbedWithoutRootTest {
    @Test
    void refusesWithAClearMessage() {
        Testbed t = new Testbed((command, stdin) -> command.get(0).equals("id")
                ? new CommandResult(command, 0, "1000\n", "")
                : new CommandResult(command, 1, "", "must not be reached"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.up(TestbedSpec.of("x", 2, 1_000_000L)));
        assertTrue(e.getMessage().contains("needs root") && e.getMessage().contains("1000"), e.getMessage());
    }

    @Test
    void aMalformedTcpNameIsRefusedBeforeAnythingRuns() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TestbedSpec("x", 2, 1_000_000L, "10.77.0", "cubic; reboot"));
        assertTrue(e.getMessage().contains("'cubic; reboot'"), e.getMessage());
    }

    @Test
    void namesAMissingToolAndItsPackage() {
        java.util.List<String> ran = new java.util.ArrayList<>();
        Testbed t = new Testbed((command, stdin) -> {
            ran.add(command.get(0));
            return switch (command.get(0)) {
                case "id" -> new CommandResult(command, 0, "0\n", "");
                case "ethtool" -> new CommandResult(command, 127, "", "cannot start: No such file or directory");
                default -> new CommandResult(command, 0, "", "");
            };
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.up(TestbedSpec.of("x", 2, 1_000_000L)));
        assertTrue(e.getMessage().contains("`ethtool`") && e.getMessage().contains("Debian package ethtool"),
                e.getMessage());
        assertTrue(!ran.contains("ip") || ran.stream().filter("ip"::equals).count() == 1,
                "nothing built before the refusal: " + ran);
    }
}
