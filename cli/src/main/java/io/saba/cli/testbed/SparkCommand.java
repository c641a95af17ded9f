package io.saba.cli.testbed;

import io.saba.testbed.TestbedSpec;
import io.saba.profiler.TestbedSparkCluster;
import io.saba.profiler.WorkloadLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code saba testbed spark start|stop}: a Spark standalone cluster inside the testbed's hosts. */
@Command(name = "spark", mixinStandardHelpOptions = true,
        description = "Spark standalone on the testbed: master on h1 (drivers run there too), a worker on every "
                + "other host, all bound to testbed addresses so shuffles cross the shaped links.",
        subcommands = {SparkCommand.Start.class, SparkCommand.Stop.class})
public final class SparkCommand {
    /** Where {@code saba testbed spark start} keeps the cluster's logs (the master's among them) and pids. */
    public static Path logDir(String name) {
        return TestbedSpec.stateDir(name).resolve("spark");
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start the master and workers (they keep running; stop them with `testbed spark stop`).")
    static final class Start implements Callable<Integer> {
        @Option(names = "--name", defaultValue = TestbedCommand.DEFAULT_NAME)
        String name;
        @Option(names = "--cores", defaultValue = "1", description = "cores per worker (default ${DEFAULT-VALUE})")
        int cores;
        @Option(names = "--memory", defaultValue = "1g", description = "memory per worker (default ${DEFAULT-VALUE})")
        String memory;
        @Option(names = "--spark-home", description = "Spark home (default: workloads/target/spark-home)")
        Path sparkHome;
        @Option(names = "--workers", split = ",", paramLabel = "HOST",
                description = "hosts (numbers) that run a worker, h1 included if listed (default: 2..N; the master "
                        + "and the drivers are on h1)")
        List<Integer> workersAsked;

        @Override
        public Integer call() throws Exception {
            return TestbedCommand.report(() -> {
                TestbedSpec spec = TestbedSpec.load(name);
                List<Integer> workers = new ArrayList<>();
                if (workersAsked != null) {
                    for (int w : workersAsked) {
                        if (w < 1 || w > spec.hosts()) {
                            throw new IllegalArgumentException("--workers: testbed " + name + " has no host h" + w);
                        }
                    }
                    workers.addAll(new java.util.TreeSet<>(workersAsked));
                } else {
                    for (int i = 2; i <= spec.hosts(); i++) {
                        workers.add(i);
                    }
                }
                TestbedSparkCluster c = TestbedSparkCluster.start(spec, WorkloadLauncher.locate(sparkHome), 1, workers,
                        cores, memory, logDir(name), Duration.ofSeconds(120));
                System.out.println("Spark master " + c.masterUrl() + " with " + workers.size() + " workers; logs in "
                        + logDir(name));
                System.out.println("run a driver on h1: saba workload run NAME --testbed " + name);
                return 0;
            });
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the master, workers and executors.")
    static final class Stop implements Callable<Integer> {
        @Option(names = "--name", defaultValue = TestbedCommand.DEFAULT_NAME)
        String name;

        @Override
        public Integer call() throws Exception {
            return TestbedCommand.report(() -> {
                System.out.println("stopped " + TestbedSparkCluster.stop(logDir(name)) + " Spark daemons");
                return 0;
            });
        }
    }
}
