package io.saba.process;

/** A command exited non-zero (or could not be started); the message says which, how, and what it printed. */
public final class CommandException extends RuntimeException {
    private final transient CommandResult result;

    public CommandException(CommandResult result) {
        super(describe(result));
        this.result = result;
    }

    public CommandResult result() {
        return result;
    }

    /** "`tc qdisc add ...` exited 2: Error: ..." — the form every caller's error message reuses. */
    public static String describe(CommandResult r) {
        String err = r.stderr().strip();
        if (err.isEmpty()) {
            err = r.stdout().strip();
        }
        return "`" + String.join(" ", r.command()) + "` exited " + r.exitCode() + (err.isEmpty() ? "" : ": " + err);
    }
}
