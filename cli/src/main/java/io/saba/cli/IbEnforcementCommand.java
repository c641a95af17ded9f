package io.saba.cli;

import io.saba.bench.ib.IbEnforcementBench;
import io.saba.controller.fabric.infiniband.SmpException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code saba bench ib-enforcement}: event → VL arbitration table latency of the InfiniBand backend on ibsim. */
@Command(name = "ib-enforcement", mixinStandardHelpOptions = true,
        description = "Time from an application's connection event until every switch port it moves holds the "
                + "planned VL arbitration table, read back by SMP: a subnet simulated by ibsim and brought up by "
                + "OpenSM, a standalone controller with the InfiniBand backend (needs ibsim-utils, opensm, "
                + "infiniband-diags).")
final class IbEnforcementCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--fat-tree", paramLabel = "SPINES,LEAVES,HOSTS", defaultValue = "2,4,2",
            description = "The simulated subnet: a two-level fat tree (default ${DEFAULT-VALUE}).")
    String fatTree;

    @Option(names = "--net", paramLabel = "FILE", description = "An ibsim net file instead of the fat tree.")
    Path net;

    @Option(names = "--events", defaultValue = "50",
            description = "Timed events, each moving every port of the ring (default ${DEFAULT-VALUE}).")
    int events;

    @Option(names = "--warmup", defaultValue = "20",
            description = "Untimed events first, while the controller's JVM compiles its hot paths (default "
                    + "${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--table", paramLabel = "FILE", description = "Sensitivity table with workloads lr and sort "
            + "(default: examples/sensitivity-table.json of this checkout).")
    Path table;

    @Override
    public Integer call() throws Exception {
        int[] shape = fatTree();
        Path models = table != null ? table : TestbedCampaignOptions.example("sensitivity-table.json");
        IbEnforcementBench.Settings s = new IbEnforcementBench.Settings(net, shape[0], shape[1], shape[2], events,
                warmup, models, TestbedCampaignOptions.controllerCommand());
        try {
            IbEnforcementBench.print(IbEnforcementBench.run(s, System.out), System.out);
            return 0;
        } catch (IllegalStateException | SmpException e) {
            // no ibsim here, a controller that did not start, a port that did not show its plan, an SMP that timed
            // out: one line
            spec.commandLine().getErr().println("saba bench ib-enforcement: " + e.getMessage());
            spec.commandLine().getErr().flush();
            return 1;
        }
    }

    private int[] fatTree() {
        String[] parts = fatTree.split(",");
        int[] out = new int[3];
        try {
            if (parts.length != 3) {
                throw new NumberFormatException();
            }
            for (int i = 0; i < 3; i++) {
                out[i] = Integer.parseInt(parts[i].strip());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--fat-tree '" + fatTree + "': expected SPINES,LEAVES,HOSTS_PER_LEAF,"
                    + " e.g. 2,4,2");
        }
        return out;
    }
}
