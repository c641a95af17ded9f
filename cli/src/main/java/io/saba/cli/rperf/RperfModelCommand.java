package io.saba.cli.rperf;

import io.saba.rperf.switchmodel.PaperReproduction;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code saba rperf model}: the switch model's reproductions of the RPerf paper, beside the paper's numbers. */
@Command(name = "model", mixinStandardHelpOptions = true,
        description = "Run the packet-level switch model on the paper's experiments and print ours beside the paper's.")
public final class RperfModelCommand implements Callable<Integer> {
    @Option(names = "--experiment", defaultValue = "all",
            description = "fcfs, rr, two-hop, dedicated-sl, gaming, msg-size or all (default ${DEFAULT-VALUE}).")
    String experiment;

    @Option(names = "--duration-us", defaultValue = "5000",
            description = "Simulated microseconds measured per run, after 200 us warm-up (default ${DEFAULT-VALUE}).")
    long durationUs;

    @Override
    public Integer call() {
        new PaperReproduction(durationUs).run(experiment).forEach(System.out::println);
        return 0;
    }
}
