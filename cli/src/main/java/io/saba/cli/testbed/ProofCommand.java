package io.saba.cli.testbed;

import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import io.saba.bench.proof.ProofApp;
import io.saba.bench.proof.ProofReport;
import io.saba.bench.proof.TestbedProof;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import io.saba.core.table.SensitivityTableCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba testbed proof}: brings up a 4-host testbed, runs baseline / Saba / work-conservation phases with
 * real iperf3 traffic, prints the share table, and takes the testbed down again (also on failure).
 */
@Command(name = "proof", mixinStandardHelpOptions = true,
        description = "Measure that the Linux backend's weights are the bandwidth shares applications get "
                + "(needs root, iproute2, iperf3, tcpdump, nftables).")
public final class ProofCommand implements Callable<Integer> {
    @Option(names = "--name", defaultValue = "proof", description = "testbed name (default ${DEFAULT-VALUE})")
    String name;
    @Option(names = "--link-rate", defaultValue = "100mbit", converter = RateConverter.class,
            description = "link rate (default ${DEFAULT-VALUE})")
    long rate;
    @Option(names = "--seconds", defaultValue = "7", description = "length of each phase (default ${DEFAULT-VALUE})")
    int seconds;
    @Option(names = "--warmup", defaultValue = "2",
            description = "seconds left out at the start of each phase (default ${DEFAULT-VALUE})")
    int warmup;
    @Option(names = "--keep", description = "leave the testbed up afterwards")
    boolean keep;
    @Option(names = "--table", defaultValue = "examples/sensitivity-table.json",
            description = "sensitivity table with lr, pagerank, sort (default ${DEFAULT-VALUE}; if absent, built-in "
                    + "illustrative models)")
    Path table;

    @Override
    public Integer call() throws Exception {
        return TestbedCommand.report(this::prove);
    }

    private int prove() throws Exception {
        Testbed testbed = TestbedCommand.testbed();
        TestbedSpec spec = TestbedSpec.of(name, 4, rate);
        Path work = Files.createTempDirectory("saba-proof-");
        testbed.up(spec); // cleans up after itself if it fails half-way
        try {
            List<ProofApp> apps;
            if (Files.exists(table)) {
                System.out.println("models: " + table);
                apps = TestbedProof.appsFrom(SensitivityTableCodec.parse(Files.readString(table), table.toString()));
            } else {
                System.out.println("models: built-in illustrative (no " + table + ")");
                apps = TestbedProof.defaultApps();
            }
            ProofReport report = new TestbedProof(spec, new ProcessRunner(), work, seconds, warmup).run(apps);
            System.out.print(report.render());
            System.out.println("raw iperf3 reports and capture: " + work);
            return report.passed() ? 0 : 1;
        } finally {
            if (!keep) {
                testbed.down(name);
            }
        }
    }
}
