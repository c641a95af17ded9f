package io.saba.cli;

import io.saba.cli.rperf.RperfCommand;
import io.saba.controller.StartupException;
import io.saba.cli.testbed.TestbedCommand;
import picocli.CommandLine;
import io.saba.core.progress.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

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
            AgentCommand.class,
            TestbedCommand.class,
            WorkloadCommand.class,
            ProfileCommand.class,
            HibenchCommand.class,
        })
public final class SabaCli {
    @Spec
    CommandSpec spec;

    /** Every command takes it (inherited): how campaigns, profiling and benchmarks show their progress. */
    @Option(names = "--progress", paramLabel = "STYLE", scope = ScopeType.INHERIT,
            description = "Progress of long runs: auto (default: one redrawn line when the console is a terminal,"
                    + " plain lines otherwise), terminal, lines or off.")
    void progress(String style) {
        if (!style.equalsIgnoreCase("auto")) {
            try {
                Progress.Style.parse(style, "--progress");
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }
        System.setProperty(Progress.Style.PROPERTY, style.strip().toLowerCase(java.util.Locale.ROOT));
    }

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
                cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": " + describe(e));
                cmd.getErr().flush();
                return 2;
            }
            throw e;
        });
        // A bad option value, an unknown option or a missing argument is bad input too: one line naming it and the
        // usage's exit status (2), not picocli's message followed by the whole usage. --help shows the usage.
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println(CommandLineMistakes.describe(e, args));
            cmd.getErr().flush();
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
        });
        trimOptions(cl, false);
        return cl;
    }

    /**
     * Leaves {@code --version} on {@code saba} alone, and {@code --progress} only where runs are long enough to show
     * progress (campaigns and benchmarks), so that a subcommand's usage lists what it takes.
     */
    private static void trimOptions(CommandLine cl, boolean showsProgress) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandSpec s = sub.getCommandSpec();
            boolean progress = showsProgress || sub.getCommandName().equals("campaign")
                    || sub.getCommandName().equals("bench");
            if (s.findOption("--version") != null) {
                s.remove(s.findOption("--version"));
            }
            if (!progress && s.findOption("--progress") != null) {
                s.remove(s.findOption("--progress"));
            }
            trimOptions(sub, progress);
        }
    }

    private static String describe(Exception e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file: " + e.getMessage();
        }
        return e.getMessage();
    }
}
