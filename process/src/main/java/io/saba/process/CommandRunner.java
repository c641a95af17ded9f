package io.saba.process;

import java.util.List;

/** Runs a command and reports what happened; never throws for a non-zero exit (callers decide). */
public interface CommandRunner {
    /** Runs {@code command} with an empty stdin. */
    default CommandResult run(List<String> command) {
        return run(command, null);
    }

    /**
     * @param stdin text fed to the command's standard input, or {@code null} for none
     */
    CommandResult run(List<String> command, String stdin);

    /** Runs and returns stdout, throwing {@link CommandException} if the command failed. */
    default String check(List<String> command) {
        return run(command).orThrow();
    }

    /** Convenience for literal commands: {@code check("ip", "netns", "list")}. */
    default String check(String... command) {
        return check(List.of(command));
    }
}
