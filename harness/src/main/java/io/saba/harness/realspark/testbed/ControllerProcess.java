package io.saba.harness.realspark.testbed;

import io.saba.process.CommandResult;
import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A standalone {@code saba controller} on h1 for one Saba run: the Linux backend on every host NIC and switch port
 * of the testbed (or the dry-run backend, for the tagged control), the testbed's topology with host queues (two applications meet first at the sender's NIC when
 * there is no fan-in), the campaign's table (or none) and allocation, its sensitivity mode, C_Saba 0.9, and, when it
 * learns across runs, a journal kept in the output folder. Its status page is read from inside h1 with curl (the
 * campaign's own JVM is outside the testbed's namespaces).
 */
final class ControllerProcess implements AutoCloseable {
    static final int GRPC_PORT = 7070;
    static final int HTTP_PORT = 7071;
    private static final String READY = "saba controller: gRPC on";

    private final TestbedLab lab;
    private final Process process;
    private final double startSeconds;

    private ControllerProcess(TestbedLab lab, Process process, double startSeconds) {
        this.lab = lab;
        this.process = process;
        this.startSeconds = startSeconds;
    }

    /** The configuration the controller runs with; {@code journal} null for none (nothing kept between runs). */
    static String config(TestbedSpec spec, CampaignSettings settings, Path journal) {
        String ip = spec.address(1);
        return String.format(Locale.ROOT, """
                listen: %s:%d
                http: %s:%d
                topology: {file: %s, host-queues: 8}
                %sallocation: %s
                sensitivity: %s
                %sc-saba: %s
                %s
                """, ip, GRPC_PORT, ip, HTTP_PORT, TestbedSpec.stateDir(spec.name()).resolve("topology.yaml"),
                settings.controllerTable() ? "table: " + settings.table().toAbsolutePath() + "\n" : "",
                settings.allocation(), settings.sensitivity(),
                journal == null ? "" : "journal-dir: " + journal.toAbsolutePath() + "\n",
                CampaignSettings.C_SABA, settings.enforces()
                        ? String.format(Locale.ROOT, "backend: linux\nbackend-options: {testbed: %s, c-saba: %s}",
                                spec.name(), CampaignSettings.C_SABA)
                        : "backend: dry-run");
    }

    /** Writes DIR/controller.yaml, starts the controller on h1 and returns once it serves (or throws). */
    static ControllerProcess start(TestbedLab lab, List<String> command, CampaignSettings settings, Path dir) {
        long t0 = System.nanoTime();
        Path yaml = dir.resolve("controller.yaml");
        Path log = dir.resolve("controller.log");
        try {
            Path journal = settings.learnsAcrossRuns() ? settings.out().resolve("journal") : null;
            Files.writeString(yaml, config(lab.spec(), settings, journal), StandardCharsets.UTF_8);
            List<String> cmd = new ArrayList<>(command);
            cmd.addAll(List.of("--config", yaml.toString()));
            Process p = lab.spawn(new ProcessBuilder(Testbed.inNode(lab.spec(), "h1", cmd)).redirectErrorStream(true)
                    .redirectOutput(log.toFile()));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!Files.readString(log, StandardCharsets.UTF_8).contains(READY)) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    lab.stop(p);
                    throw new IllegalStateException("the controller did not start (" + (p.isAlive() ? "no "
                            + "answer in 90 s" : "exit " + p.exitValue()) + "); see " + log);
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            return new ControllerProcess(lab, p, (System.nanoTime() - t0) / 1e9);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the controller", e);
        }
    }

    double startSeconds() {
        return startSeconds;
    }

    /**
     * The CPU time the controller's process has used so far, in seconds, with the processes it ran and waited for
     * (the Linux backend's {@code tc}, about one a second per port to read its queues' counters: 4.4 s beside the
     * JVM's 8.2 s in one Saba run); NaN where the platform does not tell. It runs on the same cores as the jobs'
     * executors, which a controller on a machine of its own would not.
     */
    double cpuSeconds() {
        double own = process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
        return own + reapedChildrenCpuSeconds(process.pid());
    }

    /**
     * The user and system time of the children {@code pid} has waited for, from /proc/PID/stat (cutime, cstime; in
     * USER_HZ, which Linux fixes at 100 for user space); 0 once the process is gone or off Linux.
     */
    static double reapedChildrenCpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name in parentheses may hold spaces: count fields after its closing one (state is first)
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    String address() {
        return lab.spec().address(1) + ":" + GRPC_PORT;
    }

    /** Its /status.json, fetched from inside h1; null if it did not answer. */
    String status() {
        String url = "http://" + lab.spec().address(1) + ":" + HTTP_PORT + "/status.json";
        CommandResult r = new ProcessRunner(Duration.ofSeconds(10)).run(Testbed.inNode(lab.spec(), "h1",
                List.of("curl", "-sf", "--max-time", "5", url)));
        return r.ok() ? r.stdout() : null;
    }

    /** Stops it; on TERM it releases every port it programmed (the plain link again). */
    @Override
    public void close() {
        lab.stop(process);
    }
}
