package io.saba.cli;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.model.ModelChoice;
import io.saba.harness.campaign.TestbedCampaign;
import io.saba.harness.campaign.TestbedCampaignConfig;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.packet.Fig8PacketCampaign;
import io.saba.harness.packet.Fig8PacketReport;
import io.saba.harness.campaign.ScaleStudy;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.campaign.SensitivityStudies;
import io.saba.harness.campaign.spark.SparkSetupRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saba campaign}: reproduces the Saba paper's evaluation figures in the flow-level simulator and prints our
 * numbers beside the paper's. Progress goes to stderr, the comparison to stdout, CSV and PNG to {@code --out}.
 * {@code saba campaign --testbed} runs the Fig. 8 method with real Spark jobs on a namespace testbed instead
 * ({@link TestbedCampaignOptions}).
 */
@Command(name = "campaign", mixinStandardHelpOptions = true,
        description = "Reproduce the Saba paper's figures in the simulator (fig8: 500-setup testbed campaign), or "
                + "with --testbed the Fig. 8 method with real Spark jobs on a namespace testbed (root).")
public final class CampaignCommand implements Callable<Integer> {
    /**
     * fig8's setups unless --setups says otherwise: the first 100 of the paper's 500 (setup i depends only on the
     * seed and i), so the main job finishes in minutes; --setups 500 runs them all.
     */
    static final int FIG8_SETUPS = 100;
    /** The paper's Fig. 8 on a model of its own fabric, packet by packet. */
    static final String FIG8_PACKET = "fig8-packet";
    /** fig8-packet's setups unless --setups says otherwise: what a few minutes on 2 cores hold. */
    static final int FIG8_PACKET_SETUPS = 50;
    /** fig8-packet's simulated seconds per second of the workloads' profiled run times. */
    static final double FIG8_PACKET_TIME_SCALE = 1e-5;

    @Spec
    CommandSpec spec;

    @Option(names = "--figure", defaultValue = "fig8",
            description = "fig8 (testbed campaign), fig9 (sensitivity studies), fig10, fig11a, fig11b, "
                    + "fig10-packet (the scale study packet by packet on a small leaf-spine: shared VL, a VL per "
                    + "application, Saba's VL tables with its co-run weights, Eq. 2's and equal ones), fig8-packet (fig8's setups on one lossless InfiniBand switch, "
                    + "packet by packet: shared VL, VLs without sensitivity, Saba; default 50 setups), "
                    + "fig12 (controller overhead, as saba bench allocation with its defaults), testbed-validation "
                    + "(the simulator beside a real-Spark testbed campaign's results, --measured)")
    String figure;

    @Option(names = "--measured", paramLabel = "DIR", description = "testbed-validation: the folder of a finished "
            + "saba campaign --testbed run; --table: the table it ran with (checked against its fingerprint)")
    Path measured;

    @Option(names = "--measured-fair", paramLabel = "DIR", description = "testbed-validation: the same campaign "
            + "run with --allocation fair (the per-application fair baseline), so that the order of baseline, fair "
            + "and Saba is compared per setup")
    Path measuredFair;

    @Option(names = "--shared-cores", paramLabel = "N", description = "testbed-validation, fig8, fig9: simulate "
            + "every host computing on one pool of N cores, as the namespace testbed's hosts share their machine's "
            + "(its nproc), in both runs; 0 = each instance on cores of its own (default 0)")
    Double sharedCores;

    @Option(names = "--queueing-delay", paramLabel = "FABRIC", description = "testbed-validation, fig8, fig9, "
            + "fig10/11: charge each synchronous round the wait behind other applications' data in its queue, in "
            + "both runs: testbed (TCP in a 10 ms FIFO, measured) or infiniband (4.5 µs per bulk flow at 56 Gb/s, "
            + "the RPerf paper); default none")
    String queueingDelay;

    @Option(names = "--saba-run-cores", paramLabel = "C", description = "testbed-validation, fig8, fig9, with "
            + "--shared-cores: the cores of the pool a Saba run's own processes (the controller, the tc it runs, "
            + "the plugins) keep busy while its jobs run, taken from the policy's run only; measured on the "
            + "namespace testbed at about 0.1 (docs/simulator.md); default 0")
    Double sabaRunCores;

    @Option(names = "--setups", description = "cluster setups for fig8 (default " + FIG8_SETUPS + " of the paper's "
            + "500, a few minutes on 2 cores; with --testbed 12; "
            + "fig8-packet 50)")
    Integer setups;

    @Option(names = "--seed", defaultValue = "1", description = "random seed (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--family", description = "fig8, fig9 (a, b), fig10/11, fig8-packet, fig10-packet: the model "
            + "family the simulated profile keeps, as saba profile --family: auto (default; every family, the "
            + "non-increasing ones, by held-out error), poly, monotone-poly or inverse")
    String family;

    @Option(names = "--degree", description = "polynomial degree 1-3; alone, the paper's polynomial of that degree "
            + "(the paper's method: --degree 3)")
    Integer degree;

    @Option(names = "--queues", defaultValue = "8", description = "Saba queues per port (default ${DEFAULT-VALUE})")
    int queues;

    @Option(names = "--hol-blocking",
            description = "fig8, fig9, fig10/11: model head-of-line blocking in the switch's input buffers "
                    + "(InfiniBand congestion spreading) in both runs; default: ideal fluid sharing")
    boolean holBlocking;

    @Option(names = "--oversubscription", defaultValue = "1",
            description = "fig10/11: ToR oversubscription of the 1,944-server fabric (1 = the core's wiring); "
                    + "fig10-packet: hosts per leaf over spines")
    int oversubscription;

    @Option(names = "--threads", description = "worker threads (default: all cores)")
    Integer threads;

    @Option(names = "--master",
            description = "fig8: run the setups as tasks on this Spark cluster (spark://host:7077, yarn, "
                    + "local-cluster[N,1,1024] with SPARK_HOME, local[*]); results equal a local run's")
    String master;

    @Option(names = "--conf", description = "fig8 with --master: extra Spark setting key=value (repeatable)")
    Map<String, String> sparkConf = new LinkedHashMap<>();

    @Option(names = "--out", description = "output folder; an interrupted run resumes from it (default "
            + "campaign-<figure>, with --testbed campaign-testbed)")
    Path out;

    @Mixin
    TestbedCampaignOptions testbed = new TestbedCampaignOptions();

    @Mixin
    PacketCampaignOptions packet = new PacketCampaignOptions();

    @Override
    public Integer call() {
        if (testbed.testbed) {
            List<String> simOnly = new ArrayList<>(packet.given());
            for (String o : List.of("--figure", "--family", "--degree", "--queues", "--hol-blocking", "--oversubscription",
                    "--threads", "--master", "--conf", "--measured", "--measured-fair", "--shared-cores",
                    "--queueing-delay", "--saba-run-cores")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    simOnly.add(o);
                }
            }
            if (!simOnly.isEmpty()) {
                throw new IllegalArgumentException("--testbed does not take " + String.join(", ", simOnly)
                        + " (options of the simulated campaign)");
            }
            return testbed.run(spec, setups, seed, out);
        }
        String f = figure.toLowerCase(Locale.ROOT);
        refusePacketOptionsOutside(f);
        Mechanisms mechanisms = mechanisms(f);
        if (f.equals("testbed-validation")) {
            return testbed.validate(spec, measured, measuredFair, mechanisms, out != null ? out
                    : Path.of("campaign-testbed-validation"));
        }
        refuseSimulationOptionsOutside(f);
        if (f.equals("fig12")) {
            CommandLine bench = new CommandLine(new BenchCommand.Allocation());
            bench.setOut(spec.commandLine().getOut()).setErr(spec.commandLine().getErr());
            return bench.execute();
        }
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        Path dir = out != null ? out : Path.of("campaign-" + figure);
        ModelChoice model = FitCommand.choice(family, degree);
        String report = switch (f) {
            case "fig8" -> fig8(model, mechanisms, t, dir);
            case "fig9" -> fig9(model, mechanisms, t, dir);
            case "fig10-packet" -> packet.run(seed, queues, oversubscription, model, t, dir);
            case FIG8_PACKET -> fig8Packet(model, t, dir);
            case "fig10", "fig11a", "fig11b" -> scale(f, model, mechanisms, t, dir);
            default -> throw new IllegalArgumentException("unknown or not yet available figure: " + figure);
        };
        OutputFolder.write(dir.resolve("summary.txt"), report);
        spec.commandLine().getOut().print(report);
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** The packet options name the figures they apply to; any other figure refuses them by name. */
    private void refusePacketOptionsOutside(String f) {
        List<String> refused = packet.given().stream().filter(o -> switch (f) {
            case "fig10-packet" -> List.of("--schemes", "--congestion-control", "--workloads").contains(o);
            case FIG8_PACKET -> !List.of("--time-scale", "--schemes", "--congestion-control", "--workloads",
                    "--ack-every").contains(o);
            default -> true;
        }).toList();
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", refused) + ": not with --figure " + figure
                    + " (--time-scale, --ack-every: fig8-packet and fig10-packet; --schemes, --congestion-control, "
                    + "--workloads: fig8-packet; the other packet options: fig10-packet)");
        }
    }

    /** Options of one kind of run given to a figure of another: refused by name before anything runs. */
    private void refuseSimulationOptionsOutside(String f) {
        if (measured != null || measuredFair != null) {
            throw new IllegalArgumentException((measured != null ? "--measured" : "--measured-fair")
                    + " applies to --figure testbed-validation only");
        }
        List<String> testbedOnly = new ArrayList<>(testbed.testbedOnlyGiven());
        if (f.equals("fig8")) {
            testbedOnly.remove("--allocation");
        }
        if (!testbedOnly.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", testbedOnly) + ": only with --testbed "
                    + "(the real-Spark campaign)");
        }
        if ((family != null || degree != null) && !List.of("fig8", FIG8_PACKET, "fig9", "fig10", "fig11a", "fig11b",
                "fig10-packet").contains(f)) {
            throw new IllegalArgumentException("--family and --degree apply to the simulated profiles of fig8, fig9, "
                    + "fig10, fig11 and the packet figures, not " + figure);
        }
        if ((master != null || !sparkConf.isEmpty()) && !f.equals("fig8")) {
            throw new IllegalArgumentException("--master and --conf apply to --figure fig8 only, not " + figure);
        }
        if (master == null && !sparkConf.isEmpty()) {
            throw new IllegalArgumentException("--conf needs --master (the Spark cluster to run the setups on)");
        }
    }

    private String fig8(ModelChoice model, Mechanisms mechanisms, int t, Path dir) {
        TestbedCampaignConfig cfg = new TestbedCampaignConfig(setups != null ? setups : FIG8_SETUPS, seed, model,
                queues, 1.0, t, dir, mechanisms, testbed.allocation != null
                        ? Allocation.parse(testbed.allocation, "--allocation") : Allocation.CORUN);
        TestbedCampaign.Result r;
        if (master == null) {
            r = TestbedCampaign.run(cfg, System.err);
        } else {
            try (SparkSetupRunner spark = SparkSetupRunner.start(master, sparkConf)) {
                r = TestbedCampaign.run(cfg, System.err, spark);
            }
        }
        TestbedCampaign.writeFigures(dir, r.rows());
        String policy = cfg.allocation() == Allocation.FAIR ? "per-application fair shares on Saba's levels" : "Saba";
        return TestbedCampaign.report(r.rows(), policy, TestbedCampaign.FLUID_BASELINE) + String.format(Locale.ROOT,
                "%nsimulated with %s; ran %d setups now (%d resumed) in %.1f s on %s; output in %s%n",
                mechanisms.describe(), r.ranNow(), r.resumed(), r.seconds(),
                master == null ? t + " threads" : "Spark " + master, dir);
    }

    private String fig9(ModelChoice model, Mechanisms mechanisms, int t, Path dir) {
        OutputFolder.prepare(dir, "fig9 model=" + model + mechanisms.fingerprint());
        long t0 = System.nanoTime();
        var variants = SensitivityStudies.run(t, System.err, model, mechanisms);
        SensitivityStudies.writeFigures(dir, variants);
        return SensitivityStudies.report(variants) + String.format(Locale.ROOT,
                "%nsimulated with %s; ran in %.1f s on %d threads; output in %s%n", mechanisms.describe(),
                (System.nanoTime() - t0) / 1e9, t, dir);
    }

    private String fig8Packet(ModelChoice model, int t, Path dir) {
        Fig8PacketCampaign.Config cfg = new Fig8PacketCampaign.Config(setups != null ? setups : FIG8_PACKET_SETUPS,
                seed, packet.timeScale != null ? packet.timeScale : FIG8_PACKET_TIME_SCALE, model, queues, t,
                packet.fig8Schemes(), packet.congestionControl != null ? packet.congestionControl : "default",
                packet.ackEvery(), packet.fig8Shapes(), dir);
        System.err.println("fig8-packet: " + cfg.describe());
        Fig8PacketCampaign.Result r = new Fig8PacketCampaign(cfg).run(System.err);
        if (r.jobs().setups() == 0) {
            throw new IllegalStateException("fig8-packet finished no setup");
        }
        Fig8PacketReport.writeFigures(dir, r.jobs());
        return Fig8PacketReport.text(r, cfg) + "output in " + dir + "\n";
    }

    private String scale(String f, ModelChoice model, Mechanisms mechanisms, int t, Path dir) {
        OutputFolder.prepare(dir, f + " seed=" + seed + " model=" + model + " oversubscription=" + oversubscription
                + mechanisms.fingerprint());
        long t0 = System.nanoTime();
        ScaleStudy study = ScaleStudy.oversubscribed(oversubscription, seed, model).with(mechanisms);
        System.err.printf(Locale.ROOT, "profiled 20 synthetic workloads on one rack in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
        var schemes = study.run(f, t, System.err);
        ScaleStudy.writeFigures(dir, f, schemes);
        return ScaleStudy.report(f, schemes) + "\nthe fabric in the baseline run (share of the run's time; shared: "
                + "crossed by 2 or more applications; shared+saturated: also saturated ≥ 10 % of the time)\n"
                + study.baselineLoad().report() + String.format(Locale.ROOT,
                "%nsimulated with %s; ran in %.1f s on %d threads; output in %s%n", mechanisms.describe(),
                (System.nanoTime() - t0) / 1e9, t, dir);
    }

    /** A mechanism's option, the figures it applies to and what they have in common, for the refusal. */
    private record MechanismOption(String name, List<String> figures, String why) {
    }

    private static final List<MechanismOption> MECHANISM_OPTIONS = List.of(
            new MechanismOption("--hol-blocking", List.of("fig8", "fig9", "fig10", "fig11a", "fig11b"),
                    "the simulated lossless fabrics"),
            new MechanismOption("--shared-cores", List.of("testbed-validation", "fig8", "fig9"),
                    "a testbed's hosts computing on one machine"),
            new MechanismOption("--queueing-delay", List.of("testbed-validation", "fig8", "fig9", "fig10", "fig11a",
                    "fig11b"), "the fluid simulations; the packet model queues packets itself"),
            new MechanismOption("--saba-run-cores", List.of("testbed-validation", "fig8", "fig9"),
                    "a testbed's hosts computing on one machine"));

    /** The one set of mechanisms the options switch on, refused by name for a figure it does not apply to. */
    private Mechanisms mechanisms(String f) {
        for (MechanismOption o : MECHANISM_OPTIONS) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o.name()) && !o.figures().contains(f)) {
                List<String> fs = o.figures();
                throw new IllegalArgumentException(o.name() + " applies to --figure "
                        + String.join(", ", fs.subList(0, fs.size() - 1)) + " and " + fs.get(fs.size() - 1) + " ("
                        + o.why() + "), not " + figure);
            }
        }
        if (sabaRunCores != null && sharedCores == null) {
            throw new IllegalArgumentException("--saba-run-cores needs --shared-cores (the pool its cores come from)");
        }
        return new Mechanisms(holBlocking, sharedCores != null ? sharedCores : 0,
                queueingDelay == null ? null : QueueingDelay.named(queueingDelay),
                sabaRunCores != null ? sabaRunCores : 0);
    }
}
