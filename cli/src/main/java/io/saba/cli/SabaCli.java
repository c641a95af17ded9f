package io.saba.cli;

import io.saba.cli.rperf.RperfCommand;
import io.saba.controller.StartupException;
import io.saba.cli.testbed.TestbedCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The single command-line entry, {@code saba}; each part adds a subcommand. */
@Command(name = "saba", mixinStandardHelpOptions = true, version = "saba 0.1.0",
        description = "Application-aware bandwidth allocation for datacenter networks.",
        subcommands = {
            CommandLine.HelpCommand.class,
            FitCommand.class,
            AllocateCommand.class,
            BenchCommand.class,
            RperfCommand.class,
            CampaignCommand.class,
            ControllerCommand.class,
            FabricCommand.class,
            TestbedCommand.class,
            WorkloadCommand.class,
            ProfileCommand.class,
            HibenchCommand.class,
        })
public final class SabaCli {
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new SabaCli());
        // Bad input, and a start-up the environment prevents (a journal another controller holds, a port in use, no
        // fabric), are the operator's to fix: print the precise message, not a stack trace.
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof java.io.IOException
                    || e instanceof StartupException) {
                cmd.getErr().println("saba " + cmd.getCommandName() + ": " + describe(e));
                cmd.getErr().flush();
                return 2;
            }
            throw e;
        });
        return cl;
    }

    private static String describe(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file: " + e.getMessage();
        }
        return e.getMessage();
    }
}
