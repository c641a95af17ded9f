package io.saba.harness.realspark.testbed;

import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.LinuxPortResolver;
import io.saba.controller.fabric.linux.PlainLink;
import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedPorts;
import io.saba.testbed.TestbedSpec;
import io.saba.core.alloc.PortId;
import io.saba.harness.realspark.Placement;
import io.saba.profiler.TestbedSparkCluster;
import io.saba.profiler.WorkloadLauncher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The campaign's own testbed with one Spark standalone cluster in it (master on h1, a worker on each other host,
 * offering {@link Placement}'s resources), and every process the campaign starts there. {@link #close} stops the
 * drivers and the controller, the cluster, and takes the testbed down; a shutdown hook calls it on ^C, so nothing is
 * left running. Once closing, no new process may start.
 */
final class TestbedLab implements AutoCloseable {
    private final TestbedSpec spec;
    private final WorkloadLauncher launcher;
    private final Testbed testbed;
    private final ProcessRunner shell = new ProcessRunner();
    private final List<Process> children = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final Thread hook = new Thread(this::close, "saba-campaign-teardown");
    private final Path sparkLogs;
    private volatile TestbedSparkCluster cluster;
    private double startSeconds;

    private TestbedLab(TestbedSpec spec, WorkloadLauncher launcher, Path sparkLogs) {
        this.spec = spec;
        this.launcher = launcher;
        this.testbed = new Testbed(shell);
        this.sparkLogs = sparkLogs;
    }

    /**
     * Brings the testbed up (refusing a name already in use: it would be taken down at the end) and starts Spark.
     *
     * @param slots jobs that may share a host: each worker offers that many executors of 1 core
     */
    static TestbedLab start(TestbedSpec spec, WorkloadLauncher launcher, int slots, Path logDir) {
        Testbed tb = new Testbed(new ProcessRunner());
        tb.requireRoot();
        if (!tb.namespaces(spec.name()).isEmpty()) {
            throw new IllegalArgumentException("a testbed named '" + spec.name() + "' is up already (namespaces "
                    + tb.namespaces(spec.name()) + "); the campaign brings up and takes down its own: pick another "
                    + "--name, or take that one down with saba testbed down --name " + spec.name());
        }
        long t0 = System.nanoTime();
        TestbedLab lab = new TestbedLab(spec, launcher, logDir.resolve("spark"));
        Runtime.getRuntime().addShutdownHook(lab.hook);
        try {
            lab.testbed.up(spec);
            lab.cluster = lab.startSpark(slots);
            lab.startSeconds = (System.nanoTime() - t0) / 1e9;
            return lab;
        } catch (RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    private TestbedSparkCluster startSpark(int slots) {
        List<Integer> workers = new ArrayList<>();
        for (int h = 2; h <= spec.hosts(); h++) {
            workers.add(h);
        }
        Map<Integer, Map<String, String>> props = new HashMap<>();
        try {
            Files.createDirectories(sparkLogs);
            for (int w : workers) {
                Path resources = sparkLogs.resolve("worker-" + spec.hostName(w) + "-resources.json");
                Files.writeString(resources, Placement.resourcesJson(w, workers, slots), StandardCharsets.UTF_8);
                props.put(w, Placement.workerProperties(w, workers, slots, resources.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return TestbedSparkCluster.start(spec, launcher, 1, workers, slots,
                slots * CampaignSettings.EXECUTOR_MEMORY_MB + "m", props, sparkLogs, Duration.ofMinutes(5));
    }

    TestbedSpec spec() {
        return spec;
    }

    WorkloadLauncher launcher() {
        return launcher;
    }

    TestbedSparkCluster cluster() {
        return cluster;
    }

    /** Seconds from the start of {@link #start} until Spark's workers had registered (paid once per campaign). */
    double startSeconds() {
        return startSeconds;
    }

    /** The standalone master's log (where executors went). */
    String masterLog() {
        try {
            return Files.readString(sparkLogs.resolve("master.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    boolean closing() {
        return closing.get();
    }

    /** Starts a process the lab stops on close. */
    Process spawn(ProcessBuilder pb) throws IOException {
        if (closing.get()) {
            throw new CampaignInterrupted();
        }
        Process p = pb.start();
        children.add(p);
        if (closing.get()) { // close() ran between the check and the add
            stop(p);
            throw new CampaignInterrupted();
        }
        return p;
    }

    /** Stops a process the lab started (TERM, then KILL after 15 s) and forgets it. */
    void stop(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.remove(p);
    }

    /** Every host NIC and switch port back to the plain link: one FIFO at the link rate (the baseline). */
    void resetPorts() {
        LinuxPortResolver ports = LinuxPortResolver.of(new TestbedPorts().ports(spec));
        for (int i = 1; i <= spec.hosts(); i++) {
            for (PortId id : List.of(new PortId(TestbedSpec.SWITCH, i), new PortId(spec.hostName(i), 0))) {
                LinuxPort dev = ports.resolve(id).orElseThrow();
                PlainLink.install(shell, dev);
            }
        }
    }

    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        for (Process p : List.copyOf(children)) {
            stop(p);
        }
        TestbedSparkCluster c = cluster;
        if (c != null) {
            c.close();
        }
        testbed.down(spec.name());
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }
}
