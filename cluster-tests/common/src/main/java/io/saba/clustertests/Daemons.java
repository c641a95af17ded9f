package io.saba.clustertests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The processes a test starts, each logging to {@code LOGS/NAME.log}. {@link #close} stops each one together with
 * every process it started (a Spark worker's executors and drivers, a JVM behind a launcher script): SIGTERM first,
 * as the engines' stop scripts send, then SIGKILL for whatever is left after 20 s. A shutdown hook does the same
 * when the test JVM itself is stopped, so a failed or killed run leaves nothing behind.
 */
public final class Daemons implements AutoCloseable {
    private final Path logs;
    private final List<Process> started = new ArrayList<>();
    private final Thread hook = new Thread(this::stopAll, "daemons-shutdown");

    public Daemons(Path logs) {
        this.logs = logs;
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts {@code command} in {@code dir} with {@code env} added, output and errors to {@link #log}. */
    public synchronized Process start(String name, List<String> command, Map<String, String> env, Path dir) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log(name).toFile());
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            started.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** Where {@code name}'s output goes. */
    public Path log(String name) {
        return logs.resolve(name + ".log");
    }

    /** Where the logs go; a daemon's own files kept there (a Spark worker's work directory) show in {@link #tails}. */
    public Path logDir() {
        return logs;
    }

    /** The last lines of every log ({@code *.log}, and {@code stdout} and {@code stderr} below), for a failure's message. */
    public String tails() {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> files = Files.walk(logs)) {
            for (Path f : (Iterable<Path>) files.filter(Daemons::isLog).sorted()::iterator) {
                List<String> lines = Files.readAllLines(f);
                b.append("==> ").append(logs.relativize(f)).append(" <==\n");
                lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(l -> b.append(l).append('\n'));
            }
        } catch (IOException | UncheckedIOException e) {
            b.append("(logs unreadable: ").append(e).append(")\n");
        }
        return b.toString();
    }

    private static boolean isLog(Path f) {
        String n = f.getFileName().toString();
        return Files.isRegularFile(f) && (n.endsWith(".log") || n.equals("stdout") || n.equals("stderr"));
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs already
        }
    }

    private synchronized void stopAll() {
        List<ProcessHandle> all = new ArrayList<>();
        for (int i = started.size() - 1; i >= 0; i--) {
            ProcessHandle p = started.get(i).toHandle();
            p.descendants().forEach(all::add);
            all.add(p);
        }
        all.forEach(ProcessHandle::destroy);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (ProcessHandle p : all) {
            long left = end - System.nanoTime();
            try {
                if (left > 0) {
                    p.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception notYet) {
                // killed below
            }
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        started.clear();
    }
}
