package io.saba.cli.testbed;

import io.saba.process.CommandException;
import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code saba testbed ...}: hosts as network namespaces on a software switch (needs root). */
@Command(name = "testbed", mixinStandardHelpOptions = true,
        description = "A datacenter fabric on this machine: hosts as network namespaces behind a bridge "
                + "'switch' whose ports are shaped to the link rate (needs root and iproute2).",
        subcommands = {TestbedCommand.Up.class, TestbedCommand.Status.class, TestbedCommand.Down.class,
                TestbedCommand.Exec.class, ApplyCommand.class, ProofCommand.class, SparkCommand.class,
                EnforcementCommand.class})
public final class TestbedCommand {
    static final String DEFAULT_NAME = "tb";

    static Testbed testbed() {
        return new Testbed(new ProcessRunner());
    }

    /**
     * Runs a subcommand body, turning the failures a user can act on into one line on stderr instead of a stack
     * trace: bad input (IllegalArgumentException) exits 2, as everywhere in the CLI; the machine's failures (not
     * root, a failing ip/tc command with its stderr, a testbed that is not up) exit 1.
     */
    static int report(Callable<Integer> body) throws Exception {
        try {
            return body.call();
        } catch (IllegalArgumentException e) {
            System.err.println("saba testbed: " + e.getMessage());
            return 2;
        } catch (IllegalStateException | CommandException | IOException e) {
            System.err.println("saba testbed: " + e.getMessage());
            return 1;
        }
    }

    @Command(name = "up", mixinStandardHelpOptions = true,
            description = "Create (idempotently) N hosts, the switch, shaped links; write the topology file.")
    static final class Up implements Callable<Integer> {
        @Option(names = "--hosts", defaultValue = "4", description = "number of hosts (default ${DEFAULT-VALUE})")
        int hosts;
        @Option(names = "--link-rate", defaultValue = "100mbit", converter = RateConverter.class,
                description = "link rate, e.g. 100mbit, 1gbit (default ${DEFAULT-VALUE})")
        long rate;
        @Option(names = "--name", defaultValue = DEFAULT_NAME, description = "testbed name (default ${DEFAULT-VALUE})")
        String name;
        @Option(names = "--subnet", defaultValue = "10.77.0", description = "private /24 prefix (default ${DEFAULT-VALUE})")
        String subnet;
        @Option(names = "--tcp", defaultValue = TestbedSpec.DEFAULT_TCP, description = "TCP congestion control of "
                + "every host, whatever the machine's default (default ${DEFAULT-VALUE})")
        String tcp;

        @Override
        public Integer call() throws Exception {
            return report(() -> {
                Path topo = testbed().up(new TestbedSpec(name, hosts, rate, subnet, tcp));
                System.out.println("testbed " + name + " up; topology: " + topo);
                return 0;
            });
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Hosts, addresses, switch port classes.")
    static final class Status implements Callable<Integer> {
        @Option(names = "--name", defaultValue = DEFAULT_NAME)
        String name;

        @Override
        public Integer call() throws Exception {
            return report(() -> {
                System.out.print(testbed().status(name));
                return 0;
            });
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Remove the testbed's namespaces (stopping what runs in them) and files.")
    static final class Down implements Callable<Integer> {
        @Option(names = "--name", defaultValue = DEFAULT_NAME)
        String name;

        @Override
        public Integer call() throws Exception {
            return report(() -> {
                List<String> removed = testbed().down(name);
                System.out.println(removed.isEmpty() ? "testbed " + name + ": nothing to remove" : "removed " + removed);
                return 0;
            });
        }
    }

    @Command(name = "exec", mixinStandardHelpOptions = true,
            description = "Run a command inside a host (h1..hN) or the switch (sw), e.g. "
                    + "`saba testbed exec h2 -- iperf3 -c 10.77.0.1 -S 0x20`.")
    static final class Exec implements Callable<Integer> {
        @Option(names = "--name", defaultValue = DEFAULT_NAME)
        String name;
        @Parameters(index = "0", description = "host name or sw")
        String node;
        @Parameters(index = "1..*", arity = "1..*", description = "the command")
        List<String> command;

        @Override
        public Integer call() throws Exception {
            return report(() -> {
                TestbedSpec spec = TestbedSpec.load(name);
                Process p = new ProcessBuilder(Testbed.inNode(spec, node, command)).inheritIO().start();
                return p.waitFor();
            });
        }
    }
}
