package io.saba.cli;

import io.saba.cli.testbed.RateConverter;
import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.WorkloadNames;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.realspark.CampaignFingerprint;
import io.saba.harness.realspark.JobRow;
import io.saba.harness.realspark.JobsCsv;
import io.saba.harness.realspark.TestbedValidation;
import io.saba.harness.realspark.testbed.CampaignInterrupted;
import io.saba.harness.realspark.testbed.CampaignSettings;
import io.saba.harness.realspark.testbed.RealSparkCampaign;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code saba campaign --testbed}: the options of the real-Spark campaign on the namespace testbed and its run
 * ({@link RealSparkCampaign}). Progress and the tables go to stdout, as plain lines.
 */
final class TestbedCampaignOptions {
    @Option(names = "--testbed", description = "run the Fig. 8 method with real Spark jobs on a namespace testbed "
            + "it brings up (root), instead of the simulator")
    boolean testbed;

    @Option(names = "--hosts", description = "with --testbed: testbed hosts; h1 runs drivers and the controller, "
            + "h2..hN one executor per job instance (default 5)")
    Integer hosts;

    @Option(names = "--link-rate", converter = RateConverter.class,
            description = "with --testbed: link rate, e.g. 20mbit (default 20mbit)")
    Long linkRate;

    @Option(names = "--scale", description = "with --testbed: workload scale tiny, small or paper (default small)")
    String scale;

    @Option(names = "--allocation", description = "the controller's allocation, corun (default: the co-run "
            + "predictor on the profiles' traffic records), eq2 (the paper's Eq. 2 on static shares) or fair (the "
            + "baseline: every application the same share on Saba's levels); with --testbed and for the simulated "
            + "fig8")
    String allocation;

    @Option(names = "--table", description = "with --testbed: sensitivity table the controller allocates with; its "
            + "workloads are the ones drawn (default examples/measured-testbed-table.json)")
    Path table;

    @Option(names = "--sensitivity", description = "with --testbed: the controller's model, table (the profiled "
            + "table), online (the estimate learnt from the jobs' stages) or blended (default table); under online "
            + "and blended the controller keeps a journal in the output folder, so what it learns carries over "
            + "from run to run")
    String sensitivity;

    @Option(names = "--controller-table", description = "with --testbed: yes (default) or none: none starts the "
            + "controller without the table, so every workload has the default model until it learns its own; the "
            + "table still says which workloads are drawn")
    String controllerTable;

    @Option(names = "--fabric", description = "with --testbed: the Saba run's fabric, linux (default: the controller "
            + "programs every port) or dry-run (the tagged control: Saba's shuffle manager, tagging and controller as "
            + "in a Saba run, but every port stays one FIFO as in the baseline, so its speedup is what Saba costs "
            + "without its weights)")
    String fabric;

    @Option(names = "--name", description = "with --testbed: testbed name, namespaces saba-NAME-* (default tbc)")
    String name;

    @Option(names = "--subnet", description = "with --testbed: the testbed's /24 prefix (default 10.83.0)")
    String subnet;

    @Option(names = "--spark-home", description = "with --testbed: Spark home (default workloads/target/spark-home)")
    Path sparkHome;

    @Option(names = "--run-timeout", description = "with --testbed: minutes a run's start-up, and then its jobs, may "
            + "take before the jobs still going are stopped and recorded as failed (default 30)")
    Integer runTimeoutMinutes;

    /** Options given that only apply with --testbed, for the refusal without it. */
    List<String> testbedOnlyGiven() {
        List<String> given = new ArrayList<>();
        Object[][] opts = {{hosts, "--hosts"}, {linkRate, "--link-rate"}, {scale, "--scale"},
            {allocation, "--allocation"}, {table, "--table"}, {name, "--name"}, {subnet, "--subnet"},
            {sparkHome, "--spark-home"}, {runTimeoutMinutes, "--run-timeout"}, {sensitivity, "--sensitivity"},
            {controllerTable, "--controller-table"}, {fabric, "--fabric"}};
        for (Object[] o : opts) {
            if (o[0] != null) {
                given.add((String) o[1]);
            }
        }
        return given;
    }

    /** Runs the campaign; bad input is an IllegalArgumentException (one line, exit 2). */
    int run(CommandSpec spec, Integer setups, long seed, Path out) {
        CampaignSettings settings = new CampaignSettings(setups != null ? setups : 12, seed,
                out != null ? out : Path.of("campaign-testbed"), table != null ? table : example("measured-testbed-table.json"),
                hosts != null ? hosts : 5, linkRate != null ? linkRate : 20_000_000L, scale != null ? scale : "small",
                allocation != null ? allocation : "corun", name != null ? name : "tbc",
                subnet != null ? subnet : "10.83.0", WorkloadNames.PAPER, sparkHome, controllerCommand(),
                Duration.ofMinutes(runTimeoutMinutes != null ? runTimeoutMinutes : 30),
                sensitivity != null ? sensitivity : "table", controllerTableGiven(), fabric != null ? fabric : "linux");
        RealSparkCampaign campaign = new RealSparkCampaign(settings, spec.commandLine().getOut());
        RealSparkCampaign.Result r;
        try {
            r = campaign.run();
        } catch (CampaignInterrupted e) {
            spec.commandLine().getErr().println("saba campaign: " + e.getMessage());
            return 130;
        }
        String text = campaign.summarize(r);
        spec.commandLine().getOut().print("\n" + text);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private boolean controllerTableGiven() {
        if (controllerTable == null || controllerTable.equals("yes")) {
            return true;
        }
        if (controllerTable.equals("none")) {
            return false;
        }
        throw new IllegalArgumentException("--controller-table must be yes or none, got '" + controllerTable + "'");
    }

    /**
     * {@code --figure testbed-validation}: the simulator on a finished campaign's setups, beside its measurements.
     * Only {@code --table} of this mixin applies: the campaign's settings come from its fingerprint.
     */
    int validate(CommandSpec spec, Path measured, Path measuredFair, Mechanisms mechanisms, Path out) {
        if (measured == null) {
            throw new IllegalArgumentException("--figure testbed-validation needs --measured DIR (a saba campaign "
                    + "--testbed folder)");
        }
        List<String> other = new ArrayList<>(testbedOnlyGiven());
        other.remove("--table");
        if (testbed || !other.isEmpty()) {
            throw new IllegalArgumentException("--figure testbed-validation reads the campaign's settings from "
                    + measured + "; it does not take " + (testbed ? "--testbed " : "") + String.join(", ", other));
        }
        CampaignFingerprint campaign = CampaignFingerprint.read(measured);
        Path t = table != null ? table : example("measured-testbed-table.json");
        String json;
        try {
            json = Files.readString(t);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the table " + t + ": " + e.getMessage());
        }
        if (!RealSparkCampaign.sha256(json).equals(campaign.tableSha256())) {
            throw new IllegalArgumentException(t + " is not the table " + measured + " ran with (its SHA-256 "
                    + "differs from the fingerprint's); give that one with --table");
        }
        SensitivityTable parsed = SensitivityTableCodec.parse(json, t.toString());
        Map<Integer, List<JobRow>> fair = null;
        if (measuredFair != null) {
            CampaignFingerprint f = CampaignFingerprint.read(measuredFair);
            if (f.allocation() != Allocation.FAIR || f.hosts() != campaign.hosts()
                    || f.linkRateBps() != campaign.linkRateBps() || f.cSaba() != campaign.cSaba()
                    || !f.tableSha256().equals(campaign.tableSha256())) {
                throw new IllegalArgumentException(measuredFair + " is not the fair treatment of " + measured
                        + " (it needs --allocation fair, and the same hosts, link rate, C_Saba and table)");
            }
            fair = new JobsCsv(measuredFair.resolve("jobs.csv")).read();
        }
        TestbedValidation.Result r = TestbedValidation.run(campaign, parsed,
                new JobsCsv(measured.resolve("jobs.csv")).read(), fair, mechanisms);
        // named by what the campaign ran, not by where its folder is, so a moved checkout can write it again
        OutputFolder.prepare(out, "testbed-validation of " + fingerprintText(measured));
        TestbedValidation.write(out, r);
        spec.commandLine().getOut().print(TestbedValidation.report(r));
        spec.commandLine().getOut().printf("output in %s%n", out);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private static String fingerprintText(Path measured) {
        try {
            return Files.readString(measured.resolve("campaign.fingerprint")).trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + measured.resolve("campaign.fingerprint") + ": "
                    + e.getMessage());
        }
    }

    /** A file of examples/ in the checkout bin/saba runs from (the working directory without bin/saba). */
    static Path example(String file) {
        String home = System.getProperty("saba.home");
        return Path.of(home != null ? home : ".", "examples", file);
    }

    /** This JVM's own command line, running {@code saba controller} (the campaign adds --config FILE). */
    static List<String> controllerCommand() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"), SabaCli.class.getName(),
                "controller");
    }
}
