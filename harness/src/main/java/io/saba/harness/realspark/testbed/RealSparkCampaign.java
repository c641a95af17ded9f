package io.saba.harness.realspark.testbed;

import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.realspark.CampaignReport;
import io.saba.harness.realspark.JobRow;
import io.saba.harness.realspark.JobsCsv;
import io.saba.harness.realspark.ProgressLog;
import io.saba.harness.realspark.RunOutcome;
import io.saba.harness.realspark.SetupDraws;
import io.saba.harness.realspark.SetupJob;
import io.saba.harness.realspark.testbed.CoRun.Treatment;
import io.saba.profiler.WorkloadLauncher;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code saba campaign --testbed}: the paper's Fig. 8 method with real Spark jobs on the namespace testbed. Each
 * setup ({@link SetupDraws}) runs once under the baseline (plain Spark, every port one FIFO) and once under Saba
 * (every job on Saba's shuffle manager, a standalone controller on h1 programming every port); setup i runs the
 * baseline first when i is even. A setup's rows are appended to jobs.csv when it ends; a rerun on the same folder
 * skips complete setups and refuses a folder of another configuration.
 */
public final class RealSparkCampaign {
    /**
     * @param rows               rows of setups 0..N−1 (complete ones), by setup then job
     * @param ranNow             setups run by this invocation
     * @param resumed            setups found complete in the folder
     * @param clusterStartSeconds testbed and Spark start (0 if nothing ran)
     * @param meanSetupStartup   mean start-up paid per setup run now (both runs' start-ups plus the controller's)
     */
    public record Result(List<JobRow> rows, int ranNow, int resumed, double clusterStartSeconds,
                         double meanSetupStartup) {
    }

    private static final String SETUPS_HEADER = "setup,jobs,first,baseline_startup_s,saba_startup_s,"
            + "controller_startup_s,baseline_run_s,saba_run_s,setup_wall_s,mean_speedup,controller_cpu_startup_s,"
            + "controller_cpu_run_s";

    private final CampaignSettings settings;
    private final PrintWriter out;

    public RealSparkCampaign(CampaignSettings settings, PrintWriter out) {
        this.settings = settings;
        this.out = out;
    }

    /** The table's workloads, each checked against the known ones. */
    static List<String> workloadsOf(SensitivityTable table, Path file, List<String> known) {
        List<String> w = new ArrayList<>(new TreeSet<>(table.entries().keySet()));
        for (String name : w) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException(file + ": unknown workload '" + name + "' (a campaign job runs one "
                        + "of " + String.join(", ", known) + ")");
            }
        }
        if (w.isEmpty()) {
            throw new IllegalArgumentException(file + ": the table has no workloads");
        }
        return w;
    }

    /** Runs the setups not yet in the folder and returns all rows; bad input throws IllegalArgumentException. */
    public Result run() {
        String json;
        try {
            json = Files.readString(settings.table(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the table " + settings.table() + " (" + e + "); give "
                    + "the sensitivity table the controller allocates with as --table");
        }
        SensitivityTable table = SensitivityTableCodec.parse(json, settings.table().toString());
        List<String> workloads = workloadsOf(table, settings.table(), settings.knownWorkloads());
        TestbedSpec spec = new TestbedSpec(settings.name(), settings.hosts(), settings.linkRateBps(),
                settings.subnet());
        WorkloadLauncher launcher = WorkloadLauncher.locate(settings.sparkHome());
        Path shuffleJar = launcher.sabaShuffleJar().orElseThrow(() -> new IllegalArgumentException(
                "no Saba shuffle jar (" + WorkloadLauncher.SHUFFLE_JAR_PREFIX + "*-shaded.jar) in "
                        + launcher.sparkHome().resolve("jars") + " or the checkout's " + WorkloadLauncher.SHUFFLE_JAR_DIR
                        + "; build it with mvn -B -q -DskipTests package"));
        try {
            new Testbed(new ProcessRunner()).requireRoot();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("saba campaign --testbed: " + e.getMessage());
        }
        try {
            OutputFolder.prepare(settings.out(), settings.fingerprint(workloads, sha256(json)));
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        SetupDraws draws = new SetupDraws(settings.seed(), workloads, settings.hosts());
        JobsCsv csv = new JobsCsv(settings.out().resolve("jobs.csv"));
        Map<Integer, List<JobRow>> written = csv.read();
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < settings.setups(); i++) {
            if (!complete(written.get(i), draws.setup(i))) {
                pending.add(i);
            }
        }
        ProgressLog progress = new ProgressLog(out, settings.setups(), settings.setups() - pending.size(),
                System::nanoTime);
        double clusterStart = 0;
        double startupSum = 0;
        if (!pending.isEmpty()) {
            progress.line(String.format(Locale.ROOT, "setups to run: %d (done already: %d); workloads %s; testbed %s: "
                    + "%d hosts at %d bit/s", pending.size(), settings.setups() - pending.size(), workloads,
                    spec.name(), spec.hosts(), spec.linkRateBps()));
            int slots = SetupRules.namespaceTestbed(settings.hosts() - 1).maxJobs();
            try (TestbedLab lab = TestbedLab.start(spec, launcher, slots, settings.out().resolve("logs"))) {
                clusterStart = lab.startSeconds();
                progress.line(String.format(Locale.ROOT, "testbed and Spark standalone up in %.1f s (once)",
                        clusterStart));
                CoRun corun = new CoRun(lab, settings, shuffleJar, progress);
                for (int i : pending) {
                    startupSum += runSetup(lab, corun, i, draws.setup(i), csv, progress);
                }
            }
        }
        List<JobRow> rows = new ArrayList<>();
        csv.read().forEach((i, r) -> {
            if (i < settings.setups()) {
                rows.addAll(r);
            }
        });
        return new Result(rows, pending.size(), settings.setups() - pending.size(), clusterStart,
                pending.isEmpty() ? 0 : startupSum / pending.size());
    }

    private static boolean complete(List<JobRow> written, List<SetupJob> drawn) {
        return written != null && written.stream().map(r -> r.job().id()).toList()
                .containsAll(drawn.stream().map(SetupJob::id).toList());
    }

    /** One setup, both runs; appends its rows and returns its start-up cost in seconds. */
    private double runSetup(TestbedLab lab, CoRun corun, int setup, List<SetupJob> jobs, JobsCsv csv,
                            ProgressLog progress) {
        long t0 = System.nanoTime();
        List<Treatment> order = setup % 2 == 0 ? List.of(Treatment.BASELINE, Treatment.SABA)
                : List.of(Treatment.SABA, Treatment.BASELINE);
        Path dir = settings.out().resolve("logs").resolve(String.format(Locale.ROOT, "s%03d", setup));
        progress.line("setup " + setup + ": " + String.join("; ", jobs.stream().map(SetupJob::describe).toList())
                + " (" + order.get(0).label() + " first)");
        Map<Treatment, CoRun.Result> results = new EnumMap<>(Treatment.class);
        double controllerStart = 0;
        try {
            Files.createDirectories(dir);
            for (Treatment t : order) {
                lab.resetPorts();
                if (t == Treatment.BASELINE) {
                    results.put(t, corun.run(setup, jobs, t, null, dir));
                    continue;
                }
                ControllerProcess controller;
                try {
                    controller = ControllerProcess.start(lab, settings.controllerCommand(), settings, dir);
                } catch (IllegalStateException e) {
                    if (lab.closing()) {
                        throw new CampaignInterrupted();
                    }
                    progress.line("setup " + setup + " saba: " + e.getMessage());
                    results.put(t, failedRun(jobs, "no Saba run: " + e.getMessage()));
                    continue;
                }
                try (controller) {
                    controllerStart = controller.startSeconds();
                    progress.line(String.format(Locale.ROOT, "setup %d saba: controller up on h1 in %.1f s%s", setup,
                            controllerStart, settings.enforces() ? "" : " (fabric dry-run: every port stays one FIFO)"));
                    results.put(t, corun.run(setup, jobs, t, controller, dir));
                }
                lab.resetPorts();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CampaignInterrupted();
        }
        if (lab.closing()) {
            throw new CampaignInterrupted();
        }
        CoRun.Result base = results.get(Treatment.BASELINE);
        CoRun.Result saba = results.get(Treatment.SABA);
        List<JobRow> rows = new ArrayList<>();
        for (SetupJob j : jobs) {
            List<String> notes = new ArrayList<>();
            RunOutcome b = base.outcomes().get(j.id());
            RunOutcome s = saba.outcomes().get(j.id());
            if (!b.ok()) {
                notes.add("baseline failed: " + b.failure());
            }
            if (!s.ok()) {
                notes.add("saba failed: " + s.failure());
            }
            for (CoRun.Result r : List.of(base, saba)) {
                if (r.notes().containsKey(j.id())) {
                    notes.add(r.notes().get(j.id()));
                }
            }
            rows.add(new JobRow(setup, j, b, s, String.join("; ", notes)));
        }
        csv.append(rows);
        double startup = base.startupSeconds() + saba.startupSeconds() + controllerStart;
        double wall = (System.nanoTime() - t0) / 1e9;
        Double mean = CampaignReport.perSetup(rows).get(setup);
        appendSetupLine(String.format(Locale.ROOT, "%d,%d,%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s,%.2f,%.2f", setup,
                jobs.size(), order.get(0).label(), base.startupSeconds(), saba.startupSeconds(), controllerStart,
                base.runSeconds(), saba.runSeconds(), wall, mean == null ? "" : String.format(Locale.ROOT, "%.4f", mean),
                saba.controllerCpu().startup(), saba.controllerCpu().run()));
        progress.setupDone(setup, String.format(Locale.ROOT, "mean speedup %s, start-up %.0f s (baseline %.0f, saba "
                + "%.0f, controller %.0f), wall %.0f s", mean == null ? "-" : String.format(Locale.ROOT, "%.2fx", mean),
                startup, base.startupSeconds(), saba.startupSeconds(), controllerStart, wall));
        return startup;
    }

    private static CoRun.Result failedRun(List<SetupJob> jobs, String why) {
        Map<String, RunOutcome> o = new LinkedHashMap<>();
        jobs.forEach(j -> o.put(j.id(), RunOutcome.failed(why)));
        return new CoRun.Result(o, Map.of(), 0, 0, CoRun.ControllerCpu.NONE);
    }

    private void appendSetupLine(String line) {
        Path f = settings.out().resolve("setups.csv");
        try {
            if (Files.exists(f)) {
                List<String> lines = new ArrayList<>(Files.readAllLines(f, StandardCharsets.UTF_8));
                if (!lines.isEmpty() && !lines.get(0).equals(SETUPS_HEADER)) {
                    lines.set(0, SETUPS_HEADER); // a folder from before the controller's CPU was kept: rows grow
                    Files.write(f, lines, StandardCharsets.UTF_8);
                }
            }
            String head = Files.exists(f) ? "" : SETUPS_HEADER + "\n";
            Files.writeString(f, head + line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The summary printed and written to summary.txt, with the CSV and PNG figures. */
    public String summarize(Result r) {
        String text = CampaignReport.text(r.rows(), settings.allocation()) + String.format(Locale.ROOT,
                "%nran %d setups now (%d resumed)%s; output in %s%n", r.ranNow(), r.resumed(), r.ranNow() == 0 ? ""
                        : String.format(Locale.ROOT, "; testbed and Spark start %.0f s once, start-up per setup %.0f s "
                        + "(both runs' drivers, executors and input, and the controller)", r.clusterStartSeconds(),
                        r.meanSetupStartup()), settings.out());
        CampaignReport.writeFigures(settings.out(), r.rows());
        OutputFolder.write(settings.out().resolve("summary.txt"), text);
        return text;
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
