package io.saba.cli.testbed;

import io.saba.bench.AgentsEnforcementBench;
import io.saba.bench.EnforcementBench;
import io.saba.cli.SabaCli;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba testbed enforcement}: event → kernel latency on a testbed of its own, of the Linux backend (every
 * switch port and host NIC programmed by the controller) or of the agents backend (every host NIC programmed by that
 * host's own {@code saba agent} process).
 */
@Command(name = "enforcement", mixinStandardHelpOptions = true,
        description = "Time from an application's connection event to its queues in the kernel, on every switch "
                + "port and host NIC of a testbed it brings up and down (root); with --backend agents, on every "
                + "host NIC, each programmed by its own saba agent.")
final class EnforcementCommand implements Callable<Integer> {
    @Option(names = "--backend", defaultValue = "linux", description = "linux: the controller programs every port "
            + "itself; agents: a saba controller in a namespace of its own, a saba agent per host (default "
            + "${DEFAULT-VALUE})")
    String backend;
    @Option(names = "--hosts", description = "hosts; linux: ports = 2 × hosts (default 4); agents: hosts with an "
            + "agent each, the controller's host on top (default 8)")
    Integer hosts;
    @Option(names = "--link-rate", defaultValue = "100mbit", converter = RateConverter.class,
            description = "link rate (default ${DEFAULT-VALUE})")
    long rate;
    @Option(names = "--events", defaultValue = "200", description = "events, each moving every port "
            + "(default ${DEFAULT-VALUE})")
    int events;
    @Option(names = "--name", defaultValue = "enf", description = "testbed name (default ${DEFAULT-VALUE})")
    String name;
    @Option(names = "--subnet", defaultValue = "10.81.0", description = "private /24 prefix (default ${DEFAULT-VALUE})")
    String subnet;

    @Override
    public Integer call() throws Exception {
        return TestbedCommand.report(() -> {
            if (!backend.equals("linux") && !backend.equals("agents")) {
                throw new IllegalArgumentException("--backend must be linux or agents, got " + backend);
            }
            if (backend.equals("agents")) {
                AgentsEnforcementBench.print(AgentsEnforcementBench.run(new AgentsEnforcementBench.Settings(name,
                        hosts == null ? 8 : hosts, rate, subnet, events, sabaCommand()),
                        System.out), System.out);
                return 0;
            }
            EnforcementBench.Result r = EnforcementBench.run(
                    new EnforcementBench.Settings(name, hosts == null ? 4 : hosts, rate, subnet, events), System.out);
            EnforcementBench.print(r, System.out);
            return 0;
        });
    }

    /** This JVM's own command line, running {@code saba} with a small heap (the benchmark adds the subcommand). */
    static List<String> sabaCommand() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "-Xmx192m", "-cp", System.getProperty("java.class.path"), SabaCli.class.getName());
    }
}
