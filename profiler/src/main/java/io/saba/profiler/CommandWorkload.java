package io.saba.profiler;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload as a command line. Its completion time is the {@code seconds=} of a {@code SABA_RESULT} line if the
 * program prints one (the built-in workloads do: the job's own time, without JVM and executor start-up), else
 * the command's wall-clock time. Output goes to a log file per run; a non-zero exit is a failed run, a command
 * that outlives the timeout is killed (with its descendants) and is a timed-out run.
 */
public final class CommandWorkload {
    private static final Pattern RESULT = Pattern.compile("(?m)^SABA_RESULT\\b.*?\\bseconds=([0-9.]+)");

    private final List<String> command;
    private final Map<String, String> environment;
    private final Duration timeout;

    public CommandWorkload(List<String> command, Map<String, String> environment, Duration timeout) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("empty workload command");
        }
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.timeout = timeout;
    }

    public List<String> command() {
        return command;
    }

    /** Runs once at the level the limiter has set; never throws for the workload's own failure. */
    public RunRecord run(double percent, int repetition, Path log) {
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().putAll(environment);
            pb.environment().put("SABA_RATE_PERCENT", CommandHookRateLimiter.number(percent));
            long t0 = System.nanoTime();
            Process p = pb.start();
            // ^C on the profiler must not leave the workload (a Spark driver) running on its own
            Thread killer = new Thread(() -> {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
            });
            Runtime.getRuntime().addShutdownHook(killer);
            boolean done;
            try {
                done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(killer);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running already
                }
            }
            double wall = (System.nanoTime() - t0) / 1e9;
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return RunRecord.failed(percent, repetition, RunRecord.Outcome.TIMED_OUT,
                        "killed after " + timeout.toSeconds() + " s; log " + log);
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                return RunRecord.failed(percent, repetition, RunRecord.Outcome.FAILED,
                        "exit " + p.exitValue() + ": " + lastLine(out) + " (log " + log + ")");
            }
            Matcher m = RESULT.matcher(out);
            double seconds = m.find() ? Double.parseDouble(m.group(1)) : wall;
            if (!(seconds > 0)) {
                return RunRecord.failed(percent, repetition, RunRecord.Outcome.FAILED,
                        "reported a completion time of " + seconds + " s (log " + log + ")");
            }
            return RunRecord.completed(percent, repetition, seconds);
        } catch (IOException e) {
            return RunRecord.failed(percent, repetition, RunRecord.Outcome.FAILED, "cannot run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static final Pattern STARTED = Pattern.compile("(?m)^SABA_RESULT\\b.*?\\bstarted_ms=(\\d+)");

    /** The wall-clock start of the timed part, if the run's log has a {@code SABA_RESULT ... started_ms=} line. */
    static java.util.OptionalLong startedMillis(Path log) throws IOException {
        Matcher m = STARTED.matcher(Files.readString(log, StandardCharsets.UTF_8));
        return m.find() ? java.util.OptionalLong.of(Long.parseLong(m.group(1))) : java.util.OptionalLong.empty();
    }

    static String lastLine(String out) {
        String[] lines = out.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }
}
