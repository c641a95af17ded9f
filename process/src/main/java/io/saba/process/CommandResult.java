package io.saba.process;

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

    /** True when {@link ProcessRunner} killed the command at its timeout (exit 124, as coreutils' timeout). */
    public boolean timedOut() {
        return exitCode == ProcessRunner.TIMED_OUT;
    }

    /** True when the caller's thread was interrupted while the command ran (the runner killed it). */
    public boolean interrupted() {
        return exitCode == ProcessRunner.INTERRUPTED && ProcessRunner.INTERRUPTED_TEXT.equals(stderr);
    }

    /** Why the command could not be started, as the operating system said; empty unless {@link #notStarted()}. */
    public String whyNotStarted() {
        return notStarted() ? stderr.substring(ProcessRunner.CANNOT_START.length()) : "";
    }

    /** True when the command could not be started at all (most often a missing binary; stderr says why). */
    public boolean notStarted() {
        return exitCode == ProcessRunner.NOT_STARTED && stderr.startsWith(ProcessRunner.CANNOT_START);
    }

    /** Returns stdout, or throws a {@link CommandException} naming the command if it failed. */
    public String orThrow() {
        if (!ok()) {
            throw new CommandException(this);
        }
        return stdout;
    }
}
