package io.saba.controller.shell;

import java.util.List;

/**
 * What one command did.
 *
 * @param command  the argument vector as run
 * @param exitCode the process's exit status
 * @param stdout   standard output, as text
 * @param stderr   standard error, as text
 */
public record CommandResult(List<String> command, int exitCode, String stdout, String stderr) {
    public CommandResult {
        command = List.copyOf(command);
    }

    public boolean ok() {
        return exitCode == 0;
    }

    /** Returns stdout, or throws a {@link CommandException} naming the command if it failed. */
    public String orThrow() {
        if (!ok()) {
            throw new CommandException(this);
        }
        return stdout;
    }
}
