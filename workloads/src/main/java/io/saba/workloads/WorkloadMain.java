package io.saba.workloads;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The driver program: {@code WorkloadMain NAME --scale S [--master M] ...}. {@code saba workload run} and the
 * profiler launch it in its own JVM with target/spark-home on the class path (inside a testbed namespace when the
 * driver must sit on a testbed host). Prints the completion time, a machine-readable {@value #RESULT_TAG} line,
 * and appends a line to the HiBench-format report.
 */
@Command(name = "workload-run", mixinStandardHelpOptions = true,
        description = "Runs one HiBench-style Spark workload and reports its completion time.")
public final class WorkloadMain implements Callable<Integer> {
    /**
     * The line the profiler reads: {@code SABA_RESULT workload=lr seconds=12.345 started_ms=... input_bytes=...
     * summary=...}; {@code started_ms} is the wall-clock start of the timed part, in epoch milliseconds.
     */
    public static final String RESULT_TAG = "SABA_RESULT";
    /** With {@code --wait-for-start}: the line printed once the input is prepared, before waiting on stdin. */
    public static final String PREPARED_TAG = "SABA_PREPARED";

    @Parameters(index = "0", description = "workload: lr, rf, gbt, svm, pagerank, nweight, sql, wordcount, sort, "
            + "nutchindexing")
    String name;

    @Option(names = "--scale", defaultValue = "tiny", description = "tiny, small or paper (default ${DEFAULT-VALUE})")
    String scale;

    @Option(names = "--factor", defaultValue = "1", description = "multiplies the record counts (0.1, 10, ...)")
    double factor;

    @Option(names = "--partitions", defaultValue = "4", description = "input and shuffle partitions")
    int partitions;

    @Option(names = "--master", defaultValue = "local[2]", description = "Spark master (default ${DEFAULT-VALUE}); "
            + "local-cluster[2,1,1024] or spark://host:7077 make the shuffle cross sockets")
    String master;

    @Option(names = "--driver-host", description = "address executors reach the driver at (a testbed host's)")
    String driverHost;

    @Option(names = "--report", defaultValue = "report/hibench.report", description = "HiBench-format report to "
            + "append to (default ${DEFAULT-VALUE})")
    Path report;

    @Option(names = "--conf", description = "extra Spark configuration KEY=VALUE (repeatable), e.g. "
            + "spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager")
    Map<String, String> conf = new LinkedHashMap<>();

    @Option(names = "--wait-for-start", description = "once the input is prepared, print a " + PREPARED_TAG
            + " line and wait for a line (or end of input) on stdin before starting the clock; lets a launcher "
            + "start several jobs' timed parts together")
    boolean waitForStart;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WorkloadMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Workload probe = Workloads.create(name);
        Size size = new Size(Scale.parse(scale), factor, partitions);
        try (SparkSession spark = session(master, driverHost, probe.key(), partitions, conf)) {
            WorkloadRunner.Result r = WorkloadRunner.run(spark, probe.key(), size,
                    waitForStart ? () -> awaitStart(probe.key()) : () -> { });
            int executors = Math.max(1, spark.sparkContext().getExecutorMemoryStatus().size() - 1);
            HibenchReportWriter.append(report, HibenchReportWriter.line(r.reportType(), r.startedAt(), r.inputBytes(),
                    r.seconds(), executors));
            System.out.printf(Locale.ROOT, "%s (%s, %d bytes input, %d executors): %.3f s, %s%n", r.name(), size,
                    r.inputBytes(), executors, r.seconds(), r.summary());
            System.out.printf(Locale.ROOT,
                    "%s workload=%s seconds=%.3f started_ms=%d input_bytes=%d executors=%d summary=%s%n", RESULT_TAG,
                    r.name(), r.seconds(), r.startedEpochMillis(), r.inputBytes(), executors,
                    r.summary().replace(' ', ','));
            return 0;
        }
    }

    private static void awaitStart(String workload) {
        System.out.println(PREPARED_TAG + " workload=" + workload);
        System.out.flush();
        try {
            // one line or end of input: a launcher that dies must not leave the driver waiting forever
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException("waiting for the start line on stdin", e);
        }
    }

    /** A session with the settings every workload runs under; {@code extra} wins. */
    public static SparkSession session(String master, String driverHost, String app, int partitions,
                                       Map<String, String> extra) {
        SparkSession.Builder b = SparkSession.builder().master(master).appName("saba-" + app)
                // same-host executors would otherwise read each other's shuffle files from disk
                .config("spark.shuffle.readHostLocalDisk", "false")
                .config("spark.ui.enabled", "false")
                .config("spark.default.parallelism", Integer.toString(partitions))
                .config("spark.sql.shuffle.partitions", Integer.toString(partitions))
                .config("spark.sql.adaptive.coalescePartitions.enabled", "false")
                // wait for every executor before the first job, so data is spread as on a real cluster
                .config("spark.scheduler.minRegisteredResourcesRatio", "1.0")
                .config("spark.scheduler.maxRegisteredResourcesWaitingTime", "60s")
                .config("spark.executor.memory", "768m")
                .config("spark.network.timeout", "600s")
                .config("spark.executor.heartbeatInterval", "30s")
                .config("spark.rpc.askTimeout", "300s");
        if (driverHost != null) {
            b.config("spark.driver.host", driverHost).config("spark.driver.bindAddress", driverHost);
        }
        extra.forEach(b::config);
        return b.getOrCreate();
    }
}
