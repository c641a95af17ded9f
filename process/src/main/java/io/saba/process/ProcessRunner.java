package io.saba.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands as child processes, to completion. Both output streams are drained concurrently on threads of
 * this class's own (a chatty command would otherwise block on a full pipe), and a command that outlives the
 * timeout is killed, with every process it started, and reported as exit 124, like coreutils' {@code timeout},
 * with what it had printed so far. The timeout bounds the whole call: a child that exits but leaves a process
 * holding its output open does not hold the caller either.
 *
 * <p>This is the one runner every module that shells out uses; long-lived children (servers, captures, daemons)
 * are started by their owners, who also stop them.
 */
public final class ProcessRunner implements CommandRunner {
    private static final Logger log = LoggerFactory.getLogger(ProcessRunner.class);

    /** Exit code reported for a command killed at the timeout (coreutils' {@code timeout} uses it too). */
    public static final int TIMED_OUT = 124;

    /** Exit code reported for a command that could not be started, as a shell reports a missing one. */
    public static final int NOT_STARTED = 127;

    static final String CANNOT_START = "cannot start: ";

    /** Exit code reported when the calling thread was interrupted while waiting (the child is killed). */
    public static final int INTERRUPTED = 130;

    static final String INTERRUPTED_TEXT = "interrupted";

    private static final ExecutorService DRAINERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "saba-process-drain");
        t.setDaemon(true);
        return t;
    });

    private final Duration timeout;
    private final Map<String, String> environment;

    public ProcessRunner() {
        this(Duration.ofSeconds(30));
    }

    public ProcessRunner(Duration timeout) {
        this(timeout, Map.of());
    }

    /**
     * @param environment variables set in the child's environment, over those this JVM passes on
     */
    public ProcessRunner(Duration timeout, Map<String, String> environment) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        this.timeout = timeout;
        this.environment = Map.copyOf(environment);
    }

    public Duration timeout() {
        return timeout;
    }

    @Override
    public CommandResult run(List<String> command, String stdin) {
        log.debug("run: {}", String.join(" ", command));
        long deadline = System.nanoTime() + timeout.toNanos();
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().putAll(environment);
            p = pb.start();
        } catch (IOException e) {
            // Most often a missing binary: say which, as a failed command rather than an exception.
            return new CommandResult(command, NOT_STARTED, "", CANNOT_START + e.getMessage());
        }
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            log.debug("stdin of {} closed early: {}", command.get(0), e.getMessage());
        }
        try {
            if (!p.waitFor(remaining(deadline), TimeUnit.NANOSECONDS)) {
                kill(p);
                return new CommandResult(command, TIMED_OUT, out.soFar(), err.soFar() + "\n(killed after " + timeout + ")");
            }
            if (!out.await(deadline) || !err.await(deadline)) {
                // exited, but something it started still holds its output open
                kill(p);
                return new CommandResult(command, p.exitValue(), out.soFar(),
                        err.soFar() + "\n(output still open after " + timeout + "; stopped reading)");
            }
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            return new CommandResult(command, INTERRUPTED, out.soFar(), INTERRUPTED_TEXT);
        }
        return new CommandResult(command, p.exitValue(), out.soFar(), err.soFar());
    }

    private static long remaining(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    /** Kills the child and everything below it: a shell's own children would otherwise outlive it. */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads one stream to its end on a drainer thread, keeping what arrived so far readable. Own threads, not
     * the common pool: on a 2-core machine that pool has one worker, and draining stdout while stderr fills up
     * would deadlock.
     */
    private static final class Drain {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CompletableFuture<Void> done;

        Drain(InputStream s) {
            done = CompletableFuture.runAsync(() -> {
                byte[] buf = new byte[8192];
                try (s) {
                    for (int n; (n = s.read(buf)) >= 0; ) {
                        synchronized (bytes) {
                            bytes.write(buf, 0, n);
                        }
                    }
                } catch (IOException e) {
                    // the stream was closed under us (the child was killed): keep what was read
                }
            }, DRAINERS);
        }

        /** True once the stream ended; false if the deadline passed first. */
        boolean await(long deadline) throws InterruptedException {
            try {
                done.get(remaining(deadline), TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                return true;
            }
        }

        String soFar() {
            try {
                // a killed child's pipe ends at once; give its last bytes a moment to arrive
                done.get(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // keep what arrived
            }
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
