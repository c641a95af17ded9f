package io.saba.profiler;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The corun method's competitor: a second workload started with the profiled run and restarted each time it ends,
 * so it is present for the whole of the profiled run; stopped (with its descendants: a Spark driver's executors
 * belong to the workers, which end them when the driver goes) once the profiled run ends. Nothing runs beside the
 * full-rate runs, which are the baseline (the workload alone).
 *
 * <p>A run is only a sample if the competitor was really there: a competitor run that fails on its own (a non-zero
 * exit the loop did not cause) spoils the profiled run, and so does a Saba queue through which one of the two sent
 * nothing (its traffic was not in the class its weight was set on: not tagged, or not with the expected level).
 */
public final class CompetitorLoop implements Competition {
    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Supplier<Map<Integer, Long>> queueBytes;
    private final Map<Integer, String> queueOwners;

    /**
     * @param name        the competitor's name in logs and messages
     * @param queueBytes  bytes sent per Saba queue so far (queue → bytes), read before and after each run; null for
     *                    no check
     * @param queueOwners the queues that must carry bytes in every run, with whose they are (e.g. 0 → "the profiled
     *                    workload", 1 → "the competitor")
     */
    public CompetitorLoop(String name, List<String> command, Map<String, String> environment,
                          Supplier<Map<Integer, Long>> queueBytes, Map<Integer, String> queueOwners) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("empty competitor command");
        }
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.queueBytes = queueBytes;
        this.queueOwners = Map.copyOf(queueOwners);
    }

    @Override
    public Running start(double level, int repetition, Path log) throws IOException {
        if (level >= SlowdownSamples.FULL_RATE) {
            return NONE.start(level, repetition, log);
        }
        Map<Integer, Long> before = queueBytes == null ? Map.of() : queueBytes.get();
        String stem = log.getFileName().toString().replaceFirst("\\.log$", "");
        Loop loop = new Loop(log.resolveSibling(stem + "-" + name));
        loop.thread.start();
        return new Running() {
            @Override
            public String stop() {
                loop.halt();
                String fault = loop.fault;
                if (fault == null && loop.started == 0) {
                    fault = "the competitor " + name + " never started";
                }
                if (fault == null && queueBytes != null) {
                    fault = silentQueue(before, queueBytes.get());
                }
                return fault;
            }

            @Override
            public void close() {
                loop.halt();
            }
        };
    }

    /** A queue whose owner sent nothing through it during the run, or null. */
    private String silentQueue(Map<Integer, Long> before, Map<Integer, Long> after) {
        for (Map.Entry<Integer, String> q : queueOwners.entrySet()) {
            long sent = after.getOrDefault(q.getKey(), 0L) - before.getOrDefault(q.getKey(), 0L);
            if (sent <= 0) {
                return String.format(Locale.ROOT, "%s sent nothing through its Saba queue %d during the run (its "
                        + "traffic was not in the class its weight was set on)", q.getValue(), q.getKey());
            }
        }
        return null;
    }

    /** The restart loop of one profiled run. */
    private final class Loop {
        final Thread thread;
        final Path logStem;
        volatile boolean halting;
        volatile Process current;
        volatile String fault;
        volatile int started;

        Loop(Path logStem) {
            this.logStem = logStem;
            this.thread = new Thread(this::run, "competitor-" + name);
            thread.setDaemon(true);
        }

        private void run() {
            while (!halting) {
                Path log = Path.of(logStem + "-" + started + ".log");
                try {
                    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                            .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                    pb.environment().putAll(environment);
                    synchronized (this) {
                        if (halting) {
                            return;
                        }
                        current = pb.start();
                        started++;
                    }
                    int exit = current.waitFor();
                    if (exit != 0 && !halting) {
                        fault = "the competitor " + name + " failed (exit " + exit + ": "
                                + CommandWorkload.lastLine(Files.readString(log, StandardCharsets.UTF_8)) + "; log "
                                + log + "), so it was not there for the whole run";
                        return;
                    }
                } catch (IOException e) {
                    fault = "the competitor " + name + " cannot run: " + e.getMessage();
                    return;
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Stops the loop and the competitor run in progress (TERM, then KILL after 10 s). */
        void halt() {
            Process p;
            synchronized (this) {
                halting = true;
                p = current;
            }
            if (p != null && p.isAlive()) {
                List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
                all.add(p.toHandle());
                all.forEach(ProcessHandle::destroy);
                try {
                    if (!p.waitFor(10, TimeUnit.SECONDS)) {
                        all.forEach(ProcessHandle::destroyForcibly);
                        p.waitFor(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
