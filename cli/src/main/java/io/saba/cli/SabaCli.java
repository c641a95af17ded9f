package io.saba.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The single command-line entry, {@code saba}; each part adds a subcommand. */
@Command(name = "saba", mixinStandardHelpOptions = true, version = "saba 0.1.0",
        description = "Application-aware bandwidth allocation for datacenter networks.",
        subcommands = {CommandLine.HelpCommand.class,
                io.saba.cli.rperf.RperfCommand.class})
public final class SabaCli {
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine newCommandLine() {
        return new CommandLine(new SabaCli());
    }
}
