package io.saba.cli;

import io.saba.core.table.WorkloadNames;
import io.saba.process.ProcessRunner;
import io.saba.cli.testbed.SparkCommand;
import io.saba.testbed.TestbedSpec;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.ProfilingMethod;
import io.saba.core.table.SensitivityTable;
import io.saba.profiler.CommandHookRateLimiter;
import io.saba.profiler.CommandWorkload;
import io.saba.profiler.Competition;
import io.saba.profiler.CorunSetup;
import io.saba.profiler.CurvePlot;
import io.saba.profiler.MachineInfo;
import io.saba.profiler.Profiler;
import io.saba.profiler.RateLimiter;
import io.saba.profiler.RunJournal;
import io.saba.profiler.SlowdownSamples;
import io.saba.profiler.SparkMasterLog;
import io.saba.profiler.TestbedCorunWeights;
import io.saba.profiler.TestbedRateLimiter;
import io.saba.profiler.TestbedSparkCluster;
import io.saba.profiler.TestbedTrafficRecorder;
import io.saba.profiler.TrafficRecorder;
import io.saba.profiler.WorkloadLauncher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba profile}: runs workloads at each bandwidth level, fits the sensitivity table and plots the curves. A
 * level is a cap on the workload's links ({@code --method cap}, the paper's), or its weight beside a bursty
 * competitor on work-conserving queues ({@code --method corun}, on the testbed). Every run is journaled in
 * DIR/NAME/runs.csv (corun: DIR/NAME/corun-COMPETITOR/runs.csv), so re-running the same command resumes.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Profile workloads: run each at every bandwidth level (r times), fit every model family, "
                + "choose one by cross-validation, write the sensitivity table and PNG curves. A level caps the "
                + "workload's links (--method cap), or is its weight beside a competitor (--method corun). Re-run the "
                + "same command to resume.")
final class ProfileCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    What what;

    static final class What {
        @Option(names = "--workload", split = ",", description = "built-in workloads, e.g. sort,wordcount,lr")
        List<String> builtins;
        @Option(names = "--command", description = "any command line (run with sh -c); its time is the wall time, "
                + "or the seconds= of a SABA_RESULT line it prints; needs --name")
        String command;
    }

    @Option(names = "--name", description = "table key for --command")
    String name;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Limit limit;

    static final class Limit {
        @Option(names = "--testbed", description = "namespace testbed whose hosts' egress is limited (root)")
        String testbed;
        @Option(names = "--rate-hook", description = "operator's command that sets the NIC rates of a real "
                + "cluster; {percent} / {fraction} and $SABA_RATE_PERCENT carry the level")
        String hook;
    }

    @Option(names = "--method", defaultValue = "cap", description = "cap (default: the workload alone, its links "
            + "capped at each level) or corun (--testbed only: beside --competitor on work-conserving queues, the "
            + "workload's class holding the level's share of every port and the competitor's the rest)")
    String method;
    @Option(names = "--competitor", description = "with --method corun: the built-in workload run beside, restarted "
            + "until the profiled run ends, e.g. sort")
    String competitor;
    @Option(names = "--competitor-factor", defaultValue = "1", description = "with --method corun: the competitor's "
            + "dataset factor at --scale (default ${DEFAULT-VALUE})")
    double competitorFactor;
    @Option(names = "--fabric", description = "with --rate-hook: the fabric, for the table's context")
    String fabric;
    @Option(names = "--levels", defaultValue = "5,10,25,50,75,90,100",
            description = "bandwidth levels in %% of the link (default ${DEFAULT-VALUE})")
    String levels;
    @Option(names = "--repeats", defaultValue = "3", description = "runs per level (default ${DEFAULT-VALUE})")
    int repeats;
    @Option(names = "--family", description = "model family stored in the table: auto (default; chosen by "
            + "cross-validation), poly (the paper's), monotone-poly or inverse (a + c/b); see saba fit")
    String family;
    @Option(names = "--degree", description = "polynomial degree 1-3; alone, the paper's polynomial of that degree")
    Integer degree;
    @Option(names = "--timeout", defaultValue = "900", description = "seconds before a run is killed (default ${DEFAULT-VALUE})")
    long timeoutSeconds;
    @Option(names = "--scale", defaultValue = "small", description = "built-in workloads' scale (default ${DEFAULT-VALUE})")
    String scale;
    @Option(names = "--factor", defaultValue = "1",
            description = "built-in workloads' dataset size, a multiple of --scale's (default ${DEFAULT-VALUE})")
    String factor;
    @Option(names = "--master", description = "Spark master for built-in workloads (default: the testbed's, "
            + "else local-cluster[2,1,1024])")
    String master;
    @Option(names = "--conf", description = "Spark configuration KEY=VALUE for built-in workloads (repeatable)")
    Map<String, String> conf = new LinkedHashMap<>();
    @Option(names = "--spark-home", description = "Spark home (default: workloads/target/spark-home)")
    Path sparkHome;
    @Option(names = "--out", required = true, paramLabel = "TABLE", description = "sensitivity table to create or update")
    Path out;
    @Option(names = "--dir", defaultValue = "profile-out", description = "journals, run logs and PNGs (default ${DEFAULT-VALUE})")
    Path dir;
    @Option(names = "--nodes", description = "context: nodes the workload ran on (default: the testbed's workers)")
    Integer nodes;
    @Option(names = "--dataset", description = "context: dataset description (default: the scale)")
    String dataset;
    @Option(names = "--traffic-hosts", split = ",", paramLabel = "HOST",
            description = "testbed hosts (numbers) whose egress makes the traffic record: those running the "
                    + "workload's executors (default: 2..N, where saba testbed spark start puts workers)")
    List<Integer> trafficHosts;
    @Option(names = "--note", description = "table note")
    String note;

    @Override
    public Integer call() throws Exception {
        List<Double> lv = Profiler.parseLevels(levels);
        ModelChoice choice = FitCommand.choice(family, degree);
        if (what.command != null && (name == null || name.isBlank())) {
            throw new IllegalArgumentException("--command needs --name (the table key)");
        }
        ProfilingMethod how = method();
        TestbedSpec spec = limit.testbed != null ? TestbedSpec.load(limit.testbed) : null;
        SensitivityTable table = TableFile.readOrEmpty(out);
        // on a testbed, the workers' egress is where applications meet: record how each workload occupies it
        TrafficRecorder recorder = spec == null ? TrafficRecorder.NONE : new TestbedTrafficRecorder(spec,
                trafficHosts != null ? trafficHosts : workers(spec), TestbedTrafficRecorder.DEFAULT_INTERVAL_MILLIS);
        TestbedSparkCluster cluster = null;
        CorunSetup corun = null;
        try {
            WorkloadLauncher launcher = what.builtins != null ? WorkloadLauncher.locate(sparkHome) : null;
            if (what.builtins != null && spec != null && master == null) {
                new TestbedRateLimiter(spec, new ProcessRunner()).reset();
                // corun: two applications at once, so each worker offers a core and 1 GB to each
                // (5 minutes to register, as the real-Spark campaign allows: JVMs start slowly on a busy machine)
                cluster = how.corun() ? TestbedSparkCluster.start(spec, launcher, 1, workers(spec), 2, "2g",
                        dir.resolve("spark"), Duration.ofMinutes(5))
                        : TestbedSparkCluster.start(spec, launcher, dir.resolve("spark"));
                TestbedSparkCluster started = cluster;
                // ^C: stop the master, workers and executors too (the limit stays; `testbed down` clears all)
                Runtime.getRuntime().addShutdownHook(new Thread(started::close));
            }
            if (how.corun()) {
                corun = CorunSetup.start(spec, launcher, TestbedCampaignOptions.controllerCommand(), new ProcessRunner(),
                        dir.resolve("corun-controller"));
                CorunSetup begun = corun;
                Runtime.getRuntime().addShutdownHook(new Thread(begun::close));
            }
            RateLimiter limiter = corun != null ? corun.weights() : spec != null
                    ? new TestbedRateLimiter(spec, new ProcessRunner())
                    : new CommandHookRateLimiter(limit.hook, fabric, Duration.ofMinutes(2));
            List<String> names = what.builtins != null ? what.builtins : List.of(name);
            for (String w : names) {
                String key = SensitivityTable.key(what.builtins != null ? WorkloadNames.canonical(w) : w);
                // a corun profile keeps its runs apart from the same workload's cap profile
                Path runs = how.corun() ? dir.resolve(key).resolve("corun-" + how.competitor()
                        + ("1".equals(number(competitorFactor)) ? "" : "-x" + number(competitorFactor)))
                        : dir.resolve(key);
                CommandWorkload cmd = command(key, launcher, spec, cluster, corun, runs);
                Competition beside = corun == null ? Competition.NONE : corun.competitor(how.competitor(),
                        competitorCommand(launcher, spec, cluster, corun, runs), launcher.environment());
                Profiler profiler = new Profiler(limiter, recorder, beside, placement(key, spec, cluster, corun),
                        System.out::println);
                ProfilingContext ctx = new ProfilingContext(nodes != null ? nodes : spec != null ? spec.hosts() - 1 : null,
                        dataset != null ? dataset : what.builtins != null ? "saba workloads, scale " + scale
                                + ("1".equals(factor) ? "" : " x" + factor) : null,
                        null, spec == null ? fabric : null, "measured", MachineInfo.describe(),
                        settings(lv, cmd, spec, how), Map.of()).withMethod(how);
                Profiler.Outcome o = profiler.profile(key, cmd, lv, repeats, choice,
                        new RunJournal(runs.resolve("runs.csv")), runs, ctx);
                table = table.with(o.traffic() == null ? o.entry() : o.entry().withTraffic(o.traffic()));
                if (note != null) {
                    table = table.withNote(note);
                }
                TableFile.write(out, table);
                Path png = dir.resolve(key + (how.corun() ? "-" + runs.getFileName() : "") + ".png");
                CurvePlot.write(png, key + (how.corun() ? " beside " + how.competitor() : ""), o.entry().samples(),
                        o.selection());
                System.out.print(summary(o));
                System.out.println("table " + out + " updated; plot " + png);
            }
            return 0;
        } finally {
            try {
                if (corun != null) {
                    corun.close();
                }
            } finally {
                if (cluster != null) {
                    cluster.close();
                }
            }
        }
    }

    /**
     * The method, its options checked before anything starts: corun needs the testbed (it sets weights on the
     * testbed's ports and runs the competitor there), built-in workloads (both applications run on Saba's shuffle
     * manager) and a known competitor.
     */
    ProfilingMethod method() {
        ProfilingMethod.Kind kind = ProfilingMethod.Kind.parse(method, "--method");
        if (kind == ProfilingMethod.Kind.CAP) {
            if (competitor != null) {
                throw new IllegalArgumentException("--competitor is for --method corun");
            }
            return ProfilingMethod.CAP;
        }
        if (limit.testbed == null) {
            throw new IllegalArgumentException("--method corun needs --testbed: it sets weights on the testbed's ports "
                    + "and runs the competitor there");
        }
        if (what.builtins == null) {
            throw new IllegalArgumentException("--method corun profiles built-in workloads (--workload): both "
                    + "applications must run on Saba's shuffle manager to be told apart on the ports");
        }
        if (competitor == null || competitor.isBlank()) {
            throw new IllegalArgumentException("--method corun needs --competitor NAME, a built-in workload that "
                    + "sends in bursts (e.g. sort)");
        }
        String c = WorkloadNames.canonical(competitor);
        if (!WorkloadNames.PAPER.contains(c)) {
            throw new IllegalArgumentException("--competitor: unknown workload '" + competitor + "' (known: "
                    + String.join(", ", WorkloadNames.PAPER) + ")");
        }
        if (!(competitorFactor > 0 && Double.isFinite(competitorFactor))) {
            throw new IllegalArgumentException("--competitor-factor must be a positive number, got "
                    + competitorFactor);
        }
        return ProfilingMethod.corun(c, competitorFactor);
    }

    /** h2..hN, where the profiler's own cluster puts a Spark worker. */
    private static List<Integer> workers(TestbedSpec spec) {
        return java.util.stream.IntStream.rangeClosed(2, spec.hosts()).boxed().toList();
    }

    private static String number(double v) {
        return CommandHookRateLimiter.number(v);
    }

    /** A driver's Spark settings; corun: also one core per worker and Saba's shuffle manager, registering as sabaKey. */
    private Map<String, String> sparkConf(TestbedSpec spec, CorunSetup corun, String sabaKey, String appName) {
        Map<String, String> c = new LinkedHashMap<>();
        if (corun != null) {
            c.put("spark.app.name", appName);
            // standalone would give the first application every core and the second would wait for it
            c.put("spark.executor.cores", "1");
            c.put("spark.cores.max", Integer.toString(spec.hosts() - 1));
            c.put("spark.executor.memory", "768m");
            c.putAll(corun.sabaConf(sabaKey));
        }
        c.putAll(conf);
        return c;
    }

    private List<String> driverArgs(String scaleFactor, Path report, TestbedSpec spec, TestbedSparkCluster cluster,
                                    Map<String, String> sparkConf) {
        List<String> args = new ArrayList<>(List.of("--scale", scale, "--factor", scaleFactor,
                "--report", report.toAbsolutePath().toString()));
        if (cluster != null) {
            args.addAll(cluster.driverArgs());
        } else if (spec != null) {
            args.addAll(List.of("--master", master, "--driver-host", spec.address(1)));
        } else {
            args.addAll(List.of("--master", master != null ? master : "local-cluster[2,1,1024]"));
        }
        sparkConf.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
        return args;
    }

    private static String driverNamespace(TestbedSpec spec, TestbedSparkCluster cluster) {
        return cluster != null ? cluster.driverNamespace() : spec != null ? spec.hostNamespace(1) : null;
    }

    private CommandWorkload command(String key, WorkloadLauncher launcher, TestbedSpec spec,
                                    TestbedSparkCluster cluster, CorunSetup corun, Path runs) {
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        if (what.command != null) {
            return new CommandWorkload(List.of("sh", "-c", what.command), Map.of(), timeout);
        }
        List<String> args = driverArgs(factor, runs.resolve("hibench.report"), spec, cluster,
                sparkConf(spec, corun, CorunSetup.PROFILED_KEY, "corun-" + key));
        return new CommandWorkload(launcher.driver(driverNamespace(spec, cluster), key, args,
                corun == null ? List.of() : corun.driverClassPath()), launcher.environment(), timeout);
    }

    /** The competitor's driver: the profiled workload's settings, registering with Saba as the competitor. */
    private List<String> competitorCommand(WorkloadLauncher launcher, TestbedSpec spec, TestbedSparkCluster cluster,
                                           CorunSetup corun, Path runs) {
        String c = WorkloadNames.canonical(competitor);
        List<String> args = driverArgs(number(competitorFactor), runs.resolve("competitor.report"), spec, cluster,
                sparkConf(spec, corun, CorunSetup.COMPETITOR_KEY, "corun-competitor-" + c));
        return launcher.driver(driverNamespace(spec, cluster), c, args, corun.driverClassPath());
    }

    /**
     * On a Spark cluster of the testbed (the profiler's own, or {@code saba testbed spark start}'s named by --master),
     * the master's log says whether a run's executors were spread over the workers; elsewhere nothing is checked.
     */
    private Profiler.Placement placement(String key, TestbedSpec spec, TestbedSparkCluster cluster, CorunSetup corun) {
        if (what.builtins == null || spec == null) {
            return Profiler.Placement.ANYWHERE;
        }
        Path masterLog = cluster != null ? cluster.masterLog()
                : ("spark://" + spec.address(1) + ":" + TestbedSparkCluster.MASTER_PORT).equals(master)
                ? SparkCommand.logDir(spec.name()).resolve("master.log") : null;
        if (masterLog == null) {
            return Profiler.Placement.ANYWHERE;
        }
        String app = sparkConf(spec, corun, CorunSetup.PROFILED_KEY, "corun-" + key).getOrDefault("spark.app.name",
                "saba-" + key);
        return () -> Files.exists(masterLog)
                ? SparkMasterLog.allOnOneWorker(Files.readString(masterLog, StandardCharsets.UTF_8), app) : null;
    }

    private String settings(List<Double> lv, CommandWorkload cmd, TestbedSpec spec, ProfilingMethod how) {
        String where = spec == null ? "" : master != null
                ? String.format(Locale.ROOT, "; testbed %s, driver on h1, master %s", spec.name(), master)
                : String.format(Locale.ROOT, "; Spark standalone on testbed %s: master and driver on h1, one worker"
                        + " (%s) on each of h2..h%d", spec.name(), how.corun() ? "2 cores, 2 GB" : "1 core, 1 GB",
                        spec.hosts());
        String method = !how.corun() ? "cap: each level caps the links"
                : String.format(Locale.ROOT, "corun beside %s (scale %s x%s, restarted until the profiled run ends): "
                        + "each level is the workload's share of C_Saba %.2f on every host egress and switch port "
                        + "(work-conserving HTB), the competitor's the rest; 100 %% = alone on the plain link",
                        how.competitor(), scale, number(competitorFactor), TestbedCorunWeights.C_SABA);
        return String.format(Locale.ROOT, "%s; levels %s %% x %d repetitions (highest level first in each round), "
                + "timeout %d s, time = the job's own (SABA_RESULT) or wall clock%s; command: %s", method, lv, repeats,
                timeoutSeconds, where, what.command != null ? what.command : "WorkloadMain " + String.join(" ",
                        cmd.command().subList(cmd.command().indexOf(WorkloadLauncher.DRIVER_MAIN) + 1,
                                cmd.command().size())));
    }

    static String summary(Profiler.Outcome o) {
        StringBuilder b = new StringBuilder();
        Map<Double, List<Double>> by = new TreeMap<>();
        for (Sample s : o.entry().samples()) {
            by.computeIfAbsent(s.bandwidthPercent(), k -> new ArrayList<>()).add(s.slowdown());
        }
        long failed = o.runs().stream().filter(r -> !r.completed()).count();
        double base = o.runs().stream().filter(r -> r.completed() && r.bandwidthPercent() == SlowdownSamples.FULL_RATE)
                .mapToDouble(io.saba.profiler.RunRecord::seconds).sorted().toArray().length > 0
                ? median(o.runs().stream().filter(r -> r.completed()
                        && r.bandwidthPercent() == SlowdownSamples.FULL_RATE)
                        .mapToDouble(io.saba.profiler.RunRecord::seconds).toArray()) : Double.NaN;
        b.append(String.format(Locale.ROOT, "%s: baseline %.2f s, %d runs (%d failed or timed out)%n", o.workload(),
                base, o.runs().size(), failed));
        b.append("  level %   median slowdown   samples\n");
        by.forEach((level, v) -> b.append(String.format(Locale.ROOT, "  %7.1f   %15.3f   %s%n", level,
                median(v.stream().mapToDouble(Double::doubleValue).toArray()), v.stream()
                        .map(x -> String.format(Locale.ROOT, "%.2f", x)).toList())));
        b.append(FitCommand.candidates(o.selection()));
        b.append("  chosen: ").append(o.entry().model()).append('\n');
        return b.toString();
    }

    /** {@link io.saba.core.stats.Stats#median}. */
    static double median(double[] v) {
        return io.saba.core.stats.Stats.median(v);
    }
}
