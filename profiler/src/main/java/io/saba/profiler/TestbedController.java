package io.saba.profiler;

import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code saba controller} process inside a testbed host (drivers there reach it at the host's address; the
 * profiler's own JVM is outside the testbed's namespaces). {@link #close} stops it.
 */
public final class TestbedController implements AutoCloseable {
    /** What the controller prints once it serves. */
    static final String READY = "saba controller: gRPC on";

    private final Process process;

    private TestbedController(Process process) {
        this.process = process;
    }

    /**
     * Starts {@code command --config CONFIG} in host {@code host} and returns once it serves; throws
     * IllegalStateException naming the log if it exits or does not answer within {@code waitSeconds}.
     *
     * @param command the {@code saba controller} command line (a JVM running the CLI), without --config
     */
    public static TestbedController start(TestbedSpec spec, int host, List<String> command, Path config, Path log,
                                          long waitSeconds) {
        List<String> cmd = new ArrayList<>(command);
        cmd.addAll(List.of("--config", config.toAbsolutePath().toString()));
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(Testbed.inNode(spec, spec.hostName(host), cmd)).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            TestbedController c = new TestbedController(p);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
            while (!Files.readString(log, StandardCharsets.UTF_8).contains(READY)) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    c.close();
                    throw new IllegalStateException("the controller did not start (" + (p.isAlive() ? "no answer in "
                            + waitSeconds + " s" : "exit " + p.exitValue()) + "); see " + log);
                }
                TimeUnit.MILLISECONDS.sleep(200);
            }
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the controller", e);
        }
    }

    /** TERM, then KILL after 10 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
