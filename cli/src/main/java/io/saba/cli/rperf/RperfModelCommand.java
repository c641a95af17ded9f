package io.saba.cli.rperf;

import io.saba.rperf.switchmodel.MixedTrafficConfig;
import io.saba.rperf.switchmodel.MixedTrafficExperiment;
import io.saba.rperf.switchmodel.MixedTrafficResult;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.NicLimit;
import io.saba.rperf.switchmodel.PaperReproduction;
import io.saba.rperf.switchmodel.Policy;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba rperf model}: the switch model's reproductions of the RPerf paper beside the paper's numbers,
 * or (with {@code --bsgs}) one run of a setup of your own.
 */
@Command(name = "model", mixinStandardHelpOptions = true,
        description = "Run the packet-level switch model on the paper's experiments and print ours beside the "
                + "paper's; with --bsgs, run one custom setup instead.")
public final class RperfModelCommand implements Callable<Integer> {
    @Option(names = "--experiment", defaultValue = "all",
            description = "fcfs, rr, two-hop, dedicated-sl, gaming, msg-size or all (default ${DEFAULT-VALUE}).")
    String experiment;

    @Option(names = "--duration-us", defaultValue = "5000",
            description = "Simulated microseconds measured per run, after 200 us warm-up (default ${DEFAULT-VALUE}).")
    long durationUs;

    @Option(names = "--bsgs", description = "Custom run: number of honest BSGs.")
    Integer bsgs;

    @Option(names = "--policy", defaultValue = "FCFS", description = "Custom run: FCFS or RR (default ${DEFAULT-VALUE}).")
    Policy policy;

    @Option(names = "--two-hop", description = "Custom run: two switches (LSG + 2 BSGs upstream).")
    boolean twoHop;

    @Option(names = "--bsg-size", defaultValue = "4096", description = "Custom run: BSG payload bytes.")
    int bsgSize;

    @Option(names = "--dedicated-vl", description = "Custom run: LSG on SL1 -> high-priority VL1.")
    boolean dedicatedVl;

    @Option(names = "--high-limit", defaultValue = "255", description = "Custom run: VLArb high limit (4 KiB units, 255 = unlimited).")
    int highLimit;

    @Option(names = "--pretend", defaultValue = "0", description = "Custom run: pretend LSGs (256 B on the latency SL).")
    int pretend;

    @Option(names = "--buffer-bytes", defaultValue = "32768", description = "Custom run: input buffer per port and VL.")
    int bufferBytes;

    @Option(names = "--credit-delay-ns", defaultValue = "0",
            description = "Custom run: delay before a freed buffer slot is credited back to the sender.")
    long creditDelayNs;

    @Option(names = "--line-rate-bsgs", description = "Custom run: BSGs send at line rate instead of the paper's measured NIC rate.")
    boolean lineRate;

    @Override
    public Integer call() {
        if (bsgs == null) {
            new PaperReproduction(durationUs).run(experiment).forEach(System.out::println);
            return 0;
        }
        MixedTrafficConfig c = MixedTrafficConfig.converged(bsgs, policy)
                .withParams(ModelParams.paperDefaults().withBufferBytes(bufferBytes)
                        .withCreditDelayPs(creditDelayNs * ModelParams.PS_PER_NS))
                .withTwoHop(twoHop).withBsgPayload(bsgSize).withDedicatedVl(dedicatedVl, highLimit)
                .withPretend(pretend, 256, 0)
                .withBsgNic(lineRate ? NicLimit.NONE : NicLimit.PAPER_CONNECTX4)
                .withTiming(200 * ModelParams.PS_PER_US, durationUs * ModelParams.PS_PER_US);
        MixedTrafficResult r = new MixedTrafficExperiment(c).run();
        System.out.printf(Locale.ROOT, "LSG RTT us: median %.2f  p99 %.2f  p99.9 %.2f  mean %.2f  (%d samples)%n",
                r.lsgMedianUs(), r.lsgP99Us(), r.lsgP999Us(), r.lsgMeanUs(), r.lsgRttPs().getTotalCount());
        r.bandwidth().forEach(f -> System.out.printf(Locale.ROOT, "%-9s %6.2f Gb/s%n", f.name(), f.gbps()));
        System.out.printf(Locale.ROOT, "total     %6.2f Gb/s%n", r.totalGbps());
        return 0;
    }
}
