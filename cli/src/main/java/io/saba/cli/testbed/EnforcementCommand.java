package io.saba.cli.testbed;

import io.saba.controller.bench.EnforcementBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code saba testbed enforcement}: event → kernel latency of the Linux backend on a testbed of its own. */
@Command(name = "enforcement", mixinStandardHelpOptions = true,
        description = "Time from an application's connection event to its queues in the kernel, on every switch "
                + "port and host NIC of a testbed it brings up and down (root).")
final class EnforcementCommand implements Callable<Integer> {
    @Option(names = "--hosts", defaultValue = "4", description = "hosts; ports = 2 × hosts (default ${DEFAULT-VALUE})")
    int hosts;
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
            EnforcementBench.Result r = EnforcementBench.run(
                    new EnforcementBench.Settings(name, hosts, rate, subnet, events), System.out);
            EnforcementBench.print(r, System.out);
            return 0;
        });
    }
}
