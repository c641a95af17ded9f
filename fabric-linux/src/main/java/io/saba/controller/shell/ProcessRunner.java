package io.saba.controller.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands as child processes. Both output streams are drained concurrently (a chatty command would
 * otherwise block on a full pipe), and a command that outlives the timeout is killed and reported as exit 124,
 * like coreutils' {@code timeout}.
 */
public final class ProcessRunner implements CommandRunner {
    private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);

    private static final ExecutorService DRAINERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "saba-process-drain");
        t.setDaemon(true);
        return t;
    });

    private final Duration timeout;

    public ProcessRunner() {
        this(Duration.ofSeconds(30));
    }

    public ProcessRunner(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public CommandResult run(List<String> command, String stdin) {
        log.debug("run: {}", String.join(" ", command));
        Process p;
        try {
            p = new ProcessBuilder(command).start();
        } catch (IOException e) {
            // Most often a missing binary: say which, as a failed command rather than an exception.
            return new CommandResult(command, 127, "", "cannot start: " + e.getMessage());
        }
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            log.debug("stdin of {} closed early: {}", command.get(0), e.getMessage());
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor();
                return new CommandResult(command, 124, out.join(), err.join() + "\n(killed after " + timeout + ")");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new CommandResult(command, 130, "", "interrupted");
        }
        return new CommandResult(command, p.exitValue(), out.join(), err.join());
    }

    private static CompletableFuture<String> drain(InputStream s) {
        // Own threads, not the common pool: on a 2-core machine that pool has one worker, and draining stdout
        // while stderr fills up would deadlock.
        return CompletableFuture.supplyAsync(() -> {
            try (s) {
                return new String(s.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, DRAINERS);
    }
}
