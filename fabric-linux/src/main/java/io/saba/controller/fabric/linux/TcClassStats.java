package io.saba.controller.fabric.linux;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code tc -s class show dev D} prints, read through one long-lived {@code tc -s [-n NS] -force -batch -} per
 * namespace instead of a process per reading. The controller reads every port in use once a second; a process each
 * time cost the testbed campaign 4.3–4.7 s of CPU per run on 10 ports, on cores its jobs share.
 *
 * <p>tc in batch mode answers each line it reads and flushes, so a reading writes {@code class show dev D} and then
 * a line tc cannot parse, {@code saba-N}: its error ({@code Object "saba-N" is unknown}, on the same pipe, as
 * stderr is merged into stdout) ends the reply, and {@code -force} keeps tc going. A missing device answers with an
 * error line only, which the counters' parser ignores, so it reads as no classes, as a one-shot read that failed did.
 *
 * <p>A tc that does not answer within {@link #REPLY} is killed (on a timer thread of its own: the other one may be
 * waiting for this class's lock, which the unanswered reading holds); one that died is started again at the next
 * reading. A tc process keeps the namespace it entered, and the devices in it, alive after {@code ip netns del}:
 * so a session ends once its namespace is deleted or replaced (the name's inode changed, checked at every reading),
 * and once unused for {@code idle}.
 */
final class TcClassStats implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TcClassStats.class);
    static final Duration REPLY = Duration.ofSeconds(5);
    static final Duration IDLE = Duration.ofSeconds(30);

    private final Map<String, Session> sessions = new HashMap<>(); // by namespace, "" for the controller's own
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "saba-tc-stats");
        t.setDaemon(true);
        return t;
    });
    private final long idleNanos;
    private long sequence;
    private boolean closed;

    private final long replyMillis;
    private final List<String> tc;

    TcClassStats() {
        this(IDLE, REPLY, List.of("tc"));
    }

    /** @param tc the command that is tc (a test's stand-in that never answers) */
    TcClassStats(Duration idle, Duration reply, List<String> tc) {
        this.idleNanos = idle.toNanos();
        this.replyMillis = reply.toMillis();
        this.tc = List.copyOf(tc);
        long check = Math.max(1, idle.toMillis() / 2);
        timer.scheduleWithFixedDelay(this::endIdleSessions, check, check, TimeUnit.MILLISECONDS);
    }

    /**
     * The statistics of {@code port}'s classes as {@code tc -s class show} prints them.
     *
     * @throws IllegalStateException when tc cannot be started, dies or does not answer in time (the next call
     *                               starts it again)
     */
    synchronized String show(LinuxPort port) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        String ns = port.namespace() == null ? "" : port.namespace();
        Object nsId = namespaceId(ns);
        Session s = sessions.get(ns);
        if (s != null && !Objects.equals(s.namespaceId, nsId)) {
            sessions.remove(ns);
            s.end();
            s = null;
        }
        if (s == null) {
            if (!ns.isEmpty() && nsId == null) {
                throw new IllegalStateException("no namespace " + ns);
            }
            s = Session.start(tc, port, nsId);
            sessions.put(ns, s);
        }
        String marker = "saba-" + (++sequence);
        ScheduledFuture<?> kill = timer.schedule(s.process::destroyForcibly, replyMillis, TimeUnit.MILLISECONDS);
        try {
            return s.ask("class show dev " + port.device(), marker);
        } catch (IOException | RuntimeException e) {
            sessions.remove(ns);
            s.end();
            throw new IllegalStateException("tc -batch in " + (ns.isEmpty() ? "this namespace" : ns) + ": " + e, e);
        } finally {
            kill.cancel(false);
        }
    }

    /** The inode behind {@code /run/netns/NS}, what tells one namespace of a name from the next; null if none. */
    private static Object namespaceId(String ns) {
        if (ns.isEmpty()) {
            return "";
        }
        try {
            return Files.getAttribute(Path.of("/run/netns", ns), "unix:ino");
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** How many sessions (tc processes) are open, for tests. */
    synchronized int sessions() {
        return sessions.size();
    }

    private synchronized void endIdleSessions() {
        long now = System.nanoTime();
        sessions.values().removeIf(s -> {
            boolean idle = now - s.lastUsedNanos > idleNanos;
            if (idle) {
                s.end();
            }
            return idle;
        });
    }

    @Override
    public synchronized void close() {
        closed = true;
        sessions.values().forEach(Session::end);
        sessions.clear();
        timer.shutdownNow();
    }

    private static final class Session {
        final Process process;
        final Object namespaceId;
        final Writer in;
        final BufferedReader out;
        long lastUsedNanos = System.nanoTime();

        private Session(Process process, Object namespaceId) {
            this.process = process;
            this.namespaceId = namespaceId;
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        static Session start(List<String> tc, LinuxPort port, Object namespaceId) {
            List<String> command = new ArrayList<>(tc);
            command.add("-s");
            if (port.namespace() != null) {
                command.addAll(List.of("-n", port.namespace()));
            }
            command.addAll(List.of("-force", "-batch", "-"));
            try {
                LOG.debug("starting {}", String.join(" ", command));
                return new Session(new ProcessBuilder(command).redirectErrorStream(true).start(), namespaceId);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + String.join(" ", command) + ": " + e.getMessage());
            }
        }

        /** Writes {@code line} and the marker; returns what tc printed before the marker's error. */
        String ask(String line, String marker) throws IOException {
            lastUsedNanos = System.nanoTime();
            in.write(line + "\n" + marker + "\n");
            in.flush();
            String quoted = "\"" + marker + "\"";
            StringBuilder reply = new StringBuilder();
            for (String l = out.readLine(); ; l = out.readLine()) {
                if (l == null) {
                    throw new IOException("tc ended (exit " + exitOf(process) + ")");
                }
                if (l.contains(quoted)) {
                    return reply.toString();
                }
                reply.append(l).append('\n');
            }
        }

        private static String exitOf(Process p) {
            try {
                return p.waitFor(1, TimeUnit.SECONDS) ? String.valueOf(p.exitValue()) : "none yet";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "unknown";
            }
        }

        void end() {
            try {
                in.close(); // tc ends at the end of its input
            } catch (IOException ignored) {
                // already gone
            }
            try {
                if (!process.waitFor(1, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
