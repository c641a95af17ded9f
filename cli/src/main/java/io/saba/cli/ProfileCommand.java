package io.saba.cli;

import io.saba.controller.shell.ProcessRunner;
import io.saba.controller.testbed.TestbedSpec;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.profiler.CommandHookRateLimiter;
import io.saba.profiler.CommandWorkload;
import io.saba.profiler.CurvePlot;
import io.saba.profiler.MachineInfo;
import io.saba.profiler.Profiler;
import io.saba.profiler.RateLimiter;
import io.saba.profiler.RunJournal;
import io.saba.profiler.SlowdownSamples;
import io.saba.profiler.TestbedRateLimiter;
import io.saba.profiler.TestbedSparkCluster;
import io.saba.profiler.TestbedTrafficRecorder;
import io.saba.profiler.TrafficRecorder;
import io.saba.profiler.WorkloadLauncher;
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
 * {@code saba profile}: runs workloads at each bandwidth level under a rate limit, fits the sensitivity table and
 * plots the curves. Every run is journaled in DIR/NAME/runs.csv, so re-running the same command resumes.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Profile workloads: run each at every bandwidth level (r times), fit every model family, "
                + "choose one by cross-validation, write the sensitivity table and PNG curves. Re-run the same "
                + "command to resume.")
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
    @Option(names = "--factor", defaultValue = "1")
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
        TestbedSpec spec = limit.testbed != null ? TestbedSpec.load(limit.testbed) : null;
        RateLimiter limiter = spec != null ? new TestbedRateLimiter(spec, new ProcessRunner())
                : new CommandHookRateLimiter(limit.hook, fabric, Duration.ofMinutes(2));
        SensitivityTable table = Files.exists(out)
                ? SensitivityTableCodec.parse(Files.readString(out), out.toString()) : SensitivityTable.empty();
        // on a testbed, the workers' egress is where applications meet: record how each workload occupies it
        TrafficRecorder recorder = spec == null ? TrafficRecorder.NONE : new TestbedTrafficRecorder(spec,
                trafficHosts != null ? trafficHosts : java.util.stream.IntStream.rangeClosed(2, spec.hosts()).boxed()
                        .toList(), TestbedTrafficRecorder.DEFAULT_INTERVAL_MILLIS);
        Profiler profiler = new Profiler(limiter, recorder, System.out::println);
        TestbedSparkCluster cluster = null;
        try {
            WorkloadLauncher launcher = what.builtins != null ? WorkloadLauncher.locate(sparkHome) : null;
            if (what.builtins != null && spec != null && master == null) {
                limiter.reset();
                cluster = TestbedSparkCluster.start(spec, launcher, dir.resolve("spark"));
                TestbedSparkCluster started = cluster;
                // ^C: stop the master, workers and executors too (the limit stays; `testbed down` clears all)
                Runtime.getRuntime().addShutdownHook(new Thread(started::close));
            }
            List<String> names = what.builtins != null ? what.builtins : List.of(name);
            for (String w : names) {
                String key = SensitivityTable.key(what.builtins != null ? WorkloadCommand.WorkloadNames.canonical(w) : w);
                CommandWorkload cmd = command(key, launcher, spec, cluster);
                ProfilingContext ctx = new ProfilingContext(nodes != null ? nodes : spec != null ? spec.hosts() - 1 : null,
                        dataset != null ? dataset : what.builtins != null ? "saba workloads, scale " + scale
                                + ("1".equals(factor) ? "" : " x" + factor) : null,
                        null, spec == null ? fabric : null, "measured", MachineInfo.describe(),
                        settings(lv, cmd, spec), Map.of());
                Profiler.Outcome o = profiler.profile(key, cmd, lv, repeats, choice,
                        new RunJournal(dir.resolve(key).resolve("runs.csv")), dir.resolve(key), ctx);
                table = table.with(o.traffic() == null ? o.entry() : o.entry().withTraffic(o.traffic()));
                if (note != null) {
                    table = table.withNote(note);
                }
                Files.writeString(out, SensitivityTableCodec.toJson(table));
                Path png = dir.resolve(key + ".png");
                CurvePlot.write(png, key, o.entry().samples(), o.selection());
                System.out.print(summary(o));
                System.out.println("table " + out + " updated; plot " + png);
            }
            return 0;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    private CommandWorkload command(String key, WorkloadLauncher launcher, TestbedSpec spec,
                                    TestbedSparkCluster cluster) {
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        if (what.command != null) {
            return new CommandWorkload(List.of("sh", "-c", what.command), Map.of(), timeout);
        }
        List<String> args = new ArrayList<>(List.of("--scale", scale, "--factor", factor,
                "--report", dir.resolve(key).resolve("hibench.report").toAbsolutePath().toString()));
        String ns = null;
        if (cluster != null) {
            args.addAll(cluster.driverArgs());
            ns = cluster.driverNamespace();
        } else if (spec != null) {
            args.addAll(List.of("--master", master, "--driver-host", spec.address(1)));
            ns = spec.hostNamespace(1);
        } else {
            args.addAll(List.of("--master", master != null ? master : "local-cluster[2,1,1024]"));
        }
        conf.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
        return new CommandWorkload(launcher.driver(ns, key, args), launcher.environment(), timeout);
    }

    private String settings(List<Double> lv, CommandWorkload cmd, TestbedSpec spec) {
        String where = spec == null ? "" : master != null
                ? String.format(Locale.ROOT, "; testbed %s, driver on h1, master %s", spec.name(), master)
                : String.format(Locale.ROOT, "; Spark standalone on testbed %s: master and driver on h1, one worker"
                        + " (1 core, 1 GB) on each of h2..h%d", spec.name(), spec.hosts());
        return String.format(Locale.ROOT, "levels %s %% x %d repetitions (highest level first in each round), "
                + "timeout %d s, time = the job's own (SABA_RESULT) or wall clock%s; command: %s", lv, repeats,
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

    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
    }
}
