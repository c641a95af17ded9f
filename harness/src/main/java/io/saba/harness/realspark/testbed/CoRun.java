package io.saba.harness.realspark.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.harness.realspark.Placement;
import io.saba.harness.realspark.ProgressLog;
import io.saba.harness.realspark.RunOutcome;
import io.saba.harness.realspark.SetupJob;
import io.saba.profiler.SparkMasterLog;
import io.saba.profiler.TestbedSparkCluster;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of a setup: every job's driver on h1 at once, under one treatment. Drivers prepare their input (JVM,
 * executors, data generation: the run's start-up), then wait at a start gate ({@code --wait-for-start}); once all
 * are prepared (or gone) the gate opens for all, so the jobs' clocks start together. A job's time is its own,
 * from its {@code SABA_RESULT} line; a driver that exits without one, fails, or is still running at the timeout is
 * recorded as failed. After the run the master's log is checked for where each job's executors went.
 */
final class CoRun {
    enum Treatment {
        BASELINE, SABA;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param outcomes       by job id
     * @param notes          by job id: what went wrong besides a failure (placement, registration); absent if nothing
     * @param startupSeconds from launching the drivers until every one was prepared
     * @param runSeconds     from the start gate until the last driver ended
     * @param controllerCpu  the controller's CPU seconds, with the tc and ip processes it ran, from its start to the
     *                       gate, and from the gate to the end (NaN without a controller)
     */
    record Result(Map<String, RunOutcome> outcomes, Map<String, String> notes, double startupSeconds,
                  double runSeconds, ControllerCpu controllerCpu) {
    }

    /** A controller's CPU seconds while the jobs started up and while they ran. */
    record ControllerCpu(double startup, double run) {
        static final ControllerCpu NONE = new ControllerCpu(Double.NaN, Double.NaN);
    }

    static final String SHUFFLE_MANAGER = "org.apache.spark.shuffle.saba.SabaShuffleManager";
    private static final Pattern SECONDS = Pattern.compile("^SABA_RESULT .*\\bseconds=([0-9.]+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestbedLab lab;
    private final CampaignSettings settings;
    private final Path shuffleJar;
    private final ProgressLog progress;

    CoRun(TestbedLab lab, CampaignSettings settings, Path shuffleJar, ProgressLog progress) {
        this.lab = lab;
        this.settings = settings;
        this.shuffleJar = shuffleJar;
        this.progress = progress;
    }

    /** Runs the jobs under {@code treatment}; {@code controller} is the Saba run's (null for the baseline). */
    Result run(int setup, List<SetupJob> jobs, Treatment treatment, ControllerProcess controller, Path dir)
            throws IOException, InterruptedException {
        String tag = "setup " + setup + " " + treatment.label();
        long t0 = System.nanoTime();
        CountDownLatch prepared = new CountDownLatch(jobs.size());
        CountDownLatch ended = new CountDownLatch(jobs.size());
        AtomicBoolean firstEnd = new AtomicBoolean(true);
        List<Driver> drivers = new ArrayList<>();
        for (SetupJob j : jobs) {
            Driver d = new Driver(j, appName(j, treatment), dir.resolve(treatment.label() + "-" + j.id() + ".log"));
            List<String> cmd = lab.launcher().driver(lab.cluster().driverNamespace(), j.workload(),
                    driverArgs(j, d.appName, treatment, controller, dir),
                    treatment == Treatment.SABA ? List.of(shuffleJar) : List.of());
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putAll(lab.launcher().environment());
            d.process = lab.spawn(pb);
            drivers.add(d);
            Thread reader = new Thread(() -> d.follow(prepared, () -> {
                ended.countDown();
                if (lab.closing()) {
                    return; // stopped by the teardown: not a result
                }
                progress.line(tag + ": " + d.job.describe() + ": " + (d.outcome().ok()
                        ? String.format(Locale.ROOT, "done in %.1f s", d.outcome().seconds())
                        : "FAILED: " + d.outcome().failure()));
                if (controller != null && firstEnd.getAndSet(false)) {
                    save(dir.resolve("saba-status-first-end.json"), controller.status());
                }
            }), "driver-" + d.appName);
            reader.setDaemon(true);
            reader.start();
        }
        progress.line(tag + ": " + jobs.size() + " drivers launched on h1");
        long timeout = settings.runTimeout().toNanos();
        boolean allPrepared = prepared.await(timeout, TimeUnit.NANOSECONDS);
        checkNotClosing();
        double startup = (System.nanoTime() - t0) / 1e9;
        Map<String, String> notes = new TreeMap<>();
        if (!allPrepared) {
            for (Driver d : drivers) {
                if (!d.prepared) {
                    d.timedOut = "not prepared within " + settings.runTimeout().toSeconds() + " s";
                    lab.stop(d.process);
                }
            }
        }
        if (controller != null) {
            checkRegistrations(jobs, controller, dir, tag, notes);
        }
        double cpuAtGate = controller == null ? Double.NaN : controller.cpuSeconds();
        long gate = System.nanoTime();
        for (Driver d : drivers) {
            d.start();
            if (d.process.isAlive()) {
                progress.line(tag + ": " + d.job.describe() + ": started");
            }
        }
        progress.line(String.format(Locale.ROOT, "%s: start-up %.1f s (JVMs, executors, input); clocks started",
                tag, startup));
        if (!ended.await(timeout, TimeUnit.NANOSECONDS)) {
            for (Driver d : drivers) {
                if (d.process.isAlive()) {
                    d.timedOut = "still running after " + settings.runTimeout().toSeconds() + " s";
                    lab.stop(d.process);
                }
            }
            ended.await(30, TimeUnit.SECONDS);
        }
        checkNotClosing();
        double run = (System.nanoTime() - gate) / 1e9;
        ControllerCpu cpu = controller == null ? ControllerCpu.NONE
                : new ControllerCpu(cpuAtGate, controller.cpuSeconds() - cpuAtGate);
        if (controller != null) {
            progress.line(String.format(Locale.ROOT, "%s: the controller (with its tc and ip processes) used %.1f s of "
                    + "CPU while the jobs started and %.1f s while they ran (%.0f %% of one core)", tag, cpu.startup(),
                    cpu.run(), 100 * cpu.run() / run));
        }
        Map<String, RunOutcome> outcomes = new LinkedHashMap<>();
        Map<String, List<String>> placed = SparkMasterLog.executorHosts(lab.masterLog());
        for (Driver d : drivers) {
            outcomes.put(d.job.id(), d.outcome());
            String where = placementProblem(d, placed.get(d.appName));
            if (where != null) {
                notes.merge(d.job.id(), treatment.label() + ": " + where, (a, b) -> a + "; " + b);
            }
        }
        return new Result(outcomes, notes, startup, run, cpu);
    }

    private void checkNotClosing() {
        if (lab.closing()) {
            throw new CampaignInterrupted();
        }
    }

    static String appName(SetupJob j, Treatment t) {
        return j.id() + "-" + t.label() + "-" + j.workload();
    }

    private List<String> driverArgs(SetupJob j, String appName, Treatment t, ControllerProcess controller, Path dir) {
        TestbedSparkCluster c = lab.cluster();
        List<String> a = new ArrayList<>(List.of("--scale", settings.scale(), "--factor", Double.toString(j.factor()),
                "--partitions", Integer.toString(CampaignSettings.PARTITIONS), "--report",
                dir.resolve(t.label() + "-" + j.id() + ".report").toString(), "--wait-for-start"));
        a.addAll(c.driverArgs());
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.app.name", appName);
        conf.put("spark.executor.memory", CampaignSettings.EXECUTOR_MEMORY_MB + "m");
        // many executors start at once on two cores: give them time before the input is spread
        conf.put("spark.scheduler.maxRegisteredResourcesWaitingTime", "300s");
        conf.putAll(Placement.jobConf(j));
        if (t == Treatment.SABA) {
            conf.put("spark.shuffle.manager", SHUFFLE_MANAGER);
            conf.put("spark.saba.controller.address", controller.address());
            conf.put("spark.saba.workload", j.workload());
            conf.put("spark.executor.extraClassPath", shuffleJar.toString());
        }
        conf.forEach((k, v) -> a.addAll(List.of("--conf", k + "=" + v)));
        return a;
    }

    /** Null if the job's executors ran on exactly its drawn hosts, else what happened. */
    private String placementProblem(Driver d, List<String> addresses) {
        if (!d.prepared) {
            return null; // it never ran: the failure says why
        }
        List<String> want = d.job.hosts().stream().map(h -> lab.spec().address(h)).toList();
        List<String> got = addresses == null ? List.of() : addresses.stream().sorted().toList();
        if (got.equals(want.stream().sorted().toList())) {
            return null;
        }
        return "executors on " + (got.isEmpty() ? "no host" : String.join(" ", got)) + ", drawn "
                + String.join(" ", want);
    }

    /** Saves the controller's status and notes every job whose application it does not list. */
    private void checkRegistrations(List<SetupJob> jobs, ControllerProcess controller, Path dir, String tag,
                                    Map<String, String> notes) {
        String status = controller.status();
        save(dir.resolve("saba-status.json"), status);
        Map<String, Integer> registered = new TreeMap<>();
        List<String> levels = new ArrayList<>();
        if (status != null) {
            try {
                for (JsonNode a : JSON.readTree(status).path("applications")) {
                    registered.merge(a.path("workload").asText(), 1, Integer::sum);
                    levels.add(a.path("workload").asText() + "@" + a.path("level").asInt());
                }
            } catch (IOException e) {
                status = null;
            }
        }
        Map<String, Integer> expected = new TreeMap<>();
        jobs.forEach(j -> expected.merge(j.workload(), 1, Integer::sum));
        int seen = 0;
        for (SetupJob j : jobs) {
            int want = expected.get(j.workload());
            int got = Math.min(want, registered.getOrDefault(j.workload(), 0));
            if (got < want) {
                notes.put(j.id(), "saba: " + (status == null ? "controller status unreadable"
                        : "controller lists " + got + " of " + want + " " + j.workload() + " applications"));
            }
        }
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
            seen += Math.min(e.getValue(), registered.getOrDefault(e.getKey(), 0));
        }
        progress.line(tag + ": the controller lists " + seen + " of " + jobs.size() + " jobs registered "
                + levels + " (workload@level)");
    }

    private static void save(Path file, String text) {
        try {
            Files.writeString(file, text == null ? "" : text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One driver process: its output is followed line by line into its log. */
    private static final class Driver {
        final SetupJob job;
        final String appName;
        final Path log;
        Process process;
        volatile boolean prepared;
        volatile Double seconds;
        volatile String lastLine = "";
        volatile String timedOut;
        volatile int exit = -1;

        Driver(SetupJob job, String appName, Path log) {
            this.job = job;
            this.appName = appName;
            this.log = log;
        }

        /** Copies the output to the log, noting the prepared and result lines; then calls {@code done}. */
        void follow(CountDownLatch preparedLatch, Runnable done) {
            boolean counted = false;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
                 BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    out.write(line);
                    out.newLine();
                    out.flush();
                    if (!line.isBlank()) {
                        lastLine = line.strip();
                    }
                    if (line.startsWith("SABA_PREPARED") && !counted) {
                        prepared = true;
                        counted = true;
                        preparedLatch.countDown();
                    }
                    Matcher m = SECONDS.matcher(line);
                    if (m.find()) {
                        seconds = Double.parseDouble(m.group(1));
                    }
                }
            } catch (IOException e) {
                lastLine = "reading its output: " + e.getMessage();
            } finally {
                try {
                    exit = process.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (!counted) {
                    preparedLatch.countDown();
                }
                done.run();
            }
        }

        /** Opens the start gate (a line on stdin); a driver that is gone is left alone. */
        void start() {
            try (OutputStream in = process.getOutputStream()) {
                if (process.isAlive()) {
                    in.write("go\n".getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // it exited meanwhile: its outcome says why
            }
        }

        RunOutcome outcome() {
            if (timedOut != null) {
                return RunOutcome.failed(timedOut + "; see " + log);
            }
            if (exit == 0 && seconds != null) {
                return RunOutcome.ok(seconds);
            }
            return RunOutcome.failed((exit == 0 ? "no SABA_RESULT line" : "exit " + exit) + " (" + lastLine
                    + "); see " + log);
        }
    }
}
