package io.saba.profiler;

import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Spark standalone cluster on the namespace testbed: the master on one host (h1 by default, where drivers run
 * too), a worker on each other host, every JVM inside its host's namespace and bound to its testbed address, so
 * executor-to-executor shuffles and driver traffic cross the testbed's shaped links and switch. Executors are
 * launched by the workers from the same Spark home (workloads/target/spark-home).
 *
 * <p>{@link #start} returns once every worker has registered with the master. The processes outlive this object
 * unless {@link #close} is called ({@code saba testbed spark start} relies on that; {@code saba testbed down}
 * stops whatever still runs in the namespaces). Their pids are kept in {@code LOGDIR/pids}.
 */
public final class TestbedSparkCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TestbedSparkCluster.class);
    public static final int MASTER_PORT = 7077;

    private final TestbedSpec spec;
    private final int masterHost;
    private final List<ProcessHandle> processes;
    private final Path masterLog;

    private TestbedSparkCluster(TestbedSpec spec, int masterHost, List<ProcessHandle> processes, Path masterLog) {
        this.spec = spec;
        this.masterHost = masterHost;
        this.processes = processes;
        this.masterLog = masterLog;
    }

    /**
     * @param workers       hosts that run a worker (e.g. 2..N)
     * @param coresPerWorker cores each worker offers (one executor per worker per application)
     * @param memory        memory each worker offers, Spark syntax ("1g")
     * @param logDir        master.log, worker-h<i>.log, the workers' work directories and the pid file
     */
    public static TestbedSparkCluster start(TestbedSpec spec, WorkloadLauncher launcher, int masterHost,
                                            List<Integer> workers, int coresPerWorker, String memory, Path logDir,
                                            Duration wait) {
        return start(spec, launcher, masterHost, workers, coresPerWorker, memory, Map.of(), logDir, wait);
    }

    /**
     * As above, with Spark properties for some workers (host index → properties, e.g. the custom resources a worker
     * offers, {@code spark.worker.resource.NAME.amount}); each worker's go to {@code LOGDIR/worker-hN.properties},
     * passed with {@code --properties-file}.
     */
    public static TestbedSparkCluster start(TestbedSpec spec, WorkloadLauncher launcher, int masterHost,
                                            List<Integer> workers, int coresPerWorker, String memory,
                                            Map<Integer, Map<String, String>> workerProperties, Path logDir,
                                            Duration wait) {
        List<ProcessHandle> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        // ^C while starting must not leave daemons behind (the caller only holds the cluster once start returns)
        Thread hook = new Thread(() -> stopAll(started));
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Files.createDirectories(logDir);
            String masterIp = spec.address(masterHost);
            Path masterLog = logDir.resolve("master.log");
            started.add(launch(launcher, spec, masterHost, "512m", "org.apache.spark.deploy.master.Master",
                    List.of("--host", masterIp, "--port", Integer.toString(MASTER_PORT), "--webui-port", "8080"),
                    masterLog));
            for (int w : workers) {
                Path work = logDir.resolve("work-" + spec.hostName(w));
                List<String> args = new ArrayList<>(List.of("--host", spec.address(w), "--cores",
                        Integer.toString(coresPerWorker), "--memory", memory, "--work-dir", work.toString(),
                        "--webui-port", "8081"));
                Map<String, String> props = workerProperties.getOrDefault(w, Map.of());
                if (!props.isEmpty()) {
                    args.addAll(List.of("--properties-file", writeProperties(props,
                            logDir.resolve("worker-" + spec.hostName(w) + ".properties")).toString()));
                }
                args.add("spark://" + masterIp + ":" + MASTER_PORT);
                started.add(launch(launcher, spec, w, "256m", "org.apache.spark.deploy.worker.Worker", args,
                        logDir.resolve("worker-" + spec.hostName(w) + ".log")));
            }
            Files.writeString(logDir.resolve("pids"), String.join(" ",
                    started.stream().map(p -> Long.toString(p.pid())).toList()) + "\n");
            awaitWorkers(masterLog, workers.size(), wait, started);
            log.info("Spark standalone on testbed {}: master {} , {} workers", spec.name(), masterIp, workers.size());
            return new TestbedSparkCluster(spec, masterHost, started, masterLog);
        } catch (IOException e) {
            stopAll(started);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            stopAll(started);
            throw e;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    /** Master on h1, workers on h2..hN, one core and 1 GB each. */
    public static TestbedSparkCluster start(TestbedSpec spec, WorkloadLauncher launcher, Path logDir) {
        List<Integer> workers = new ArrayList<>();
        for (int i = 2; i <= spec.hosts(); i++) {
            workers.add(i);
        }
        return start(spec, launcher, 1, workers, 1, "1g", logDir, Duration.ofSeconds(120));
    }

    private static ProcessHandle launch(WorkloadLauncher l, TestbedSpec spec, int host, String heap, String main,
                                        List<String> args, Path logFile) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(l.javaCommand(spec.hostNamespace(host), heap, main, args))
                .redirectErrorStream(true).redirectOutput(logFile.toFile());
        pb.environment().putAll(l.environment());
        // executors a worker launches bind to the host's testbed address
        pb.environment().put("SPARK_LOCAL_IP", spec.address(host));
        return pb.start().toHandle();
    }

    private static Path writeProperties(Map<String, String> props, Path file) throws IOException {
        StringBuilder b = new StringBuilder();
        new TreeMap<>(props).forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        return Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    private static void awaitWorkers(Path masterLog, int workers, Duration wait, List<ProcessHandle> started)
            throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            String text = Files.exists(masterLog) ? Files.readString(masterLog, StandardCharsets.UTF_8) : "";
            int registered = text.split("Registering worker", -1).length - 1;
            if (registered >= workers) {
                return;
            }
            for (ProcessHandle p : started) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a Spark daemon (pid " + p.pid() + ") exited during start-up; see "
                            + masterLog.getParent());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(registered + " of " + workers + " Spark workers registered within "
                        + wait.toSeconds() + " s; see " + masterLog.getParent());
            }
            try {
                TimeUnit.MILLISECONDS.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** The master's log: where it launched every application's executors ({@link SparkMasterLog}). */
    public Path masterLog() {
        return masterLog;
    }

    public String masterUrl() {
        return "spark://" + spec.address(masterHost) + ":" + MASTER_PORT;
    }

    /** The host drivers run on: the master's. */
    public String driverHost() {
        return spec.address(masterHost);
    }

    public String driverNamespace() {
        return spec.hostNamespace(masterHost);
    }

    /** Driver arguments for a workload on this cluster. */
    public List<String> driverArgs() {
        return List.of("--master", masterUrl(), "--driver-host", driverHost());
    }

    @Override
    public void close() {
        stopAll(processes);
    }

    /** Stops the daemons recorded in {@code LOGDIR/pids} (and the executors under them). */
    public static int stop(Path logDir) throws IOException {
        Path pids = logDir.resolve("pids");
        if (!Files.exists(pids)) {
            return 0;
        }
        List<ProcessHandle> ps = new ArrayList<>();
        for (String s : Files.readString(pids).trim().split("\\s+")) {
            if (!s.isEmpty()) {
                ProcessHandle.of(Long.parseLong(s)).ifPresent(ps::add);
            }
        }
        stopAll(ps);
        Files.delete(pids);
        return ps.size();
    }

    /** Workers (and their executors) first, then the master; TERM, then KILL after 10 s. */
    static void stopAll(List<ProcessHandle> ps) {
        List<ProcessHandle> all = new ArrayList<>();
        for (int i = ps.size() - 1; i >= 0; i--) {
            ps.get(i).descendants().forEach(all::add);
            all.add(ps.get(i));
        }
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }
}
