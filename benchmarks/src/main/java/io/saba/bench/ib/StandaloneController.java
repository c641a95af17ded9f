package io.saba.bench.ib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code saba controller --config FILE} as a process of its own, as it is deployed: so that its CPU time (with its
 * SMP agent, a child JVM) can be read apart from the benchmark's client and read-back.
 */
final class StandaloneController implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("saba controller: gRPC on (\\S+):(\\d+)");

    private final Process process;
    private final String target;

    private StandaloneController(Process process, String target) {
        this.process = process;
        this.target = target;
    }

    /** Starts {@code command --config config}, output to {@code log}; returns once it serves gRPC (or throws). */
    static StandaloneController start(List<String> command, Path config, Path log) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>(command);
        cmd.addAll(List.of("--config", config.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            // bytes, not readString: a line being written may end inside a multi-byte character
            Matcher m = READY.matcher(new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
            if (m.find()) {
                return new StandaloneController(p, m.group(1) + ":" + m.group(2));
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new IllegalStateException("the controller did not start (" + (p.isAlive() ? "no answer in 120 s"
                        : "exit " + p.exitValue()) + "); see " + log);
            }
            Thread.sleep(100);
        }
    }

    /** host:port of its gRPC service. */
    String target() {
        return target;
    }

    /** CPU time so far (user + system) of the controller's JVM and its children, the SMP agent among them. */
    long cpuNanos() {
        long sum = cpuNanos(process.toHandle());
        for (ProcessHandle child : process.descendants().toList()) {
            sum += cpuNanos(child);
        }
        return sum;
    }

    private static long cpuNanos(ProcessHandle h) {
        return h.info().totalCpuDuration().map(d -> d.toNanos()).orElse(0L);
    }

    /** Stops it as a signal does in production: its shutdown hook gives every port its original tables back. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
