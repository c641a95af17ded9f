package io.saba.cli;

import io.saba.core.table.WorkloadNames;
import io.saba.testbed.TestbedSpec;
import io.saba.profiler.TestbedSparkCluster;
import io.saba.profiler.WorkloadLauncher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code saba workload run|list}: the built-in HiBench-style Spark workloads, each run as its own driver JVM from
 * workloads/target/spark-home (in testbed host h1 with {@code --testbed}).
 */
@Command(name = "workload", mixinStandardHelpOptions = true,
        description = "HiBench-style Spark workloads (LR, RF, GBT, SVM, PageRank, NWeight, SQL join, WordCount, "
                + "Sort, inverted index).",
        subcommands = {WorkloadCommand.Run.class, WorkloadCommand.ListNames.class})
final class WorkloadCommand {
    @Command(name = "list", description = "The workload names (sensitivity-table keys).")
    static final class ListNames implements Callable<Integer> {
        @Override
        public Integer call() {
            WorkloadNames.PAPER.forEach(System.out::println);
            return 0;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run one workload; prints its completion time and appends a HiBench report line.")
    static final class Run implements Callable<Integer> {
        @Parameters(index = "0", description = "workload name (saba workload list)")
        String name;
        @Option(names = "--scale", defaultValue = "tiny", description = "tiny, small or paper (default ${DEFAULT-VALUE})")
        String scale;
        @Option(names = "--factor", defaultValue = "1", description = "dataset factor (0.1, 10, ...)")
        String factor;
        @Option(names = "--partitions", defaultValue = "4")
        String partitions;
        @Option(names = "--master", description = "Spark master (default local[2]; local-cluster[2,1,1024] makes the "
                + "shuffle cross sockets)")
        String master;
        @Option(names = "--testbed", description = "run the driver on testbed host h1 against the testbed's Spark "
                + "(started with `saba testbed spark start`)")
        String testbed;
        @Option(names = "--report", defaultValue = "report/hibench.report")
        Path report;
        @Option(names = "--conf", description = "Spark configuration KEY=VALUE (repeatable)")
        Map<String, String> conf = new LinkedHashMap<>();
        @Option(names = "--spark-home", description = "Spark home (default: workloads/target/spark-home)")
        Path sparkHome;
        @Option(names = "--wait-for-start", description = "once the input is prepared, print SABA_PREPARED and wait "
                + "for a line (or the end) on stdin before the timed run: jobs started together then time the same "
                + "stretch")
        boolean waitForStart;

        @Override
        public Integer call() throws Exception {
            if (!WorkloadNames.PAPER.contains(WorkloadNames.canonical(name))) {
                throw new IllegalArgumentException("unknown workload '" + name + "' (known: " + String.join(", ", WorkloadNames.PAPER)
                        + ")");
            }
            WorkloadLauncher l = WorkloadLauncher.locate(sparkHome);
            List<String> cmd = l.driver(namespace(), name, args());
            ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
            pb.environment().putAll(l.environment());
            return pb.start().waitFor();
        }

        private String namespace() throws java.io.IOException {
            return testbed == null ? null : TestbedSpec.load(testbed).hostNamespace(1);
        }

        List<String> args() throws java.io.IOException {
            List<String> a = new ArrayList<>(List.of("--scale", scale, "--factor", factor, "--partitions", partitions,
                    "--report", report.toAbsolutePath().toString()));
            if (testbed != null) {
                TestbedSpec spec = TestbedSpec.load(testbed);
                a.addAll(List.of("--master", master != null ? master
                        : "spark://" + spec.address(1) + ":" + TestbedSparkCluster.MASTER_PORT,
                        "--driver-host", spec.address(1)));
            } else if (master != null) {
                a.addAll(List.of("--master", master));
            }
            if (waitForStart) {
                a.add("--wait-for-start");
            }
            conf.forEach((k, v) -> a.addAll(List.of("--conf", k + "=" + v)));
            return a;
        }
    }
}
