package io.saba.controller.fabric.infiniband;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MadSmp} in a child JVM ({@link SmpAgentMain}) started with an environment of its own. Why a child: the
 * process that opens umad is the one that needs {@code LD_PRELOAD=libumad2sim.so} under ibsim (or the umad
 * permissions on a real fabric), and a libibmad call that hangs must not hang the controller. Each call waits at
 * most {@code callTimeoutMillis}; on a timeout or a dead agent the child is killed and a new one started at the
 * next call.
 */
public final class SmpAgent implements Smp {
    private static final Logger LOG = LoggerFactory.getLogger(SmpAgent.class);
    private static final String EOF = "\u0000eof";

    private final Map<String, String> env;
    private final List<String> args;
    private final long callTimeoutMillis;
    private Process process;
    private Writer toAgent;
    private BlockingQueue<String> fromAgent;
    /** Why the last start failed and when: calls fail fast for a while instead of starting a JVM per port. */
    private String startFailure;
    private long startFailedNanos;
    private static final long RETRY_START_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * @param env               extra environment for the child (e.g. LD_PRELOAD, IBSIM_SOCKNAME)
     * @param device            HCA name or null
     * @param madTimeoutMillis  libibmad's per-MAD timeout
     * @param callTimeoutMillis the most a call may take end to end
     */
    public SmpAgent(Map<String, String> env, String device, int devicePort, int madTimeoutMillis,
                    long callTimeoutMillis) {
        this.env = Map.copyOf(env);
        this.args = List.of(device == null ? "-" : device, String.valueOf(devicePort), String.valueOf(madTimeoutMillis));
        this.callTimeoutMillis = callTimeoutMillis;
    }

    @Override
    public synchronized byte[] get(int lid, int attribute, int modifier) {
        return call("GET " + lid + " " + attribute + " " + modifier, lid, attribute, modifier);
    }

    @Override
    public synchronized byte[] set(int lid, int attribute, int modifier, byte[] data) {
        if (data.length != DATA_BYTES) {
            throw new IllegalArgumentException("an SMP payload is " + DATA_BYTES + " bytes, got " + data.length);
        }
        return call("SET " + lid + " " + attribute + " " + modifier + " " + HexFormat.of().formatHex(data),
                lid, attribute, modifier);
    }

    private byte[] call(String request, int lid, int attribute, int modifier) {
        String what = SmpException.what(lid, attribute, modifier);
        ensureStarted();
        String reply;
        try {
            toAgent.write(request + "\n");
            toAgent.flush();
            reply = fromAgent.poll(callTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            kill();
            throw new SmpException("SMP agent died: " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new SmpException("interrupted: " + what, e);
        }
        if (reply == null || reply.equals(EOF)) {
            kill();
            throw new SmpException((reply == null ? "SMP agent gave no answer within " + callTimeoutMillis
                    + " ms (killed; a new one starts at the next call): " : "SMP agent exited: ") + what);
        }
        if (reply.startsWith("OK ")) {
            return HexFormat.of().parseHex(reply.substring(3));
        }
        throw new SmpException(reply.startsWith("ERR ") ? reply.substring(4) : "bad agent reply '" + reply + "'");
    }

    private void ensureStarted() {
        if (process != null && process.isAlive()) {
            return;
        }
        if (startFailure != null && System.nanoTime() - startFailedNanos < RETRY_START_NANOS) {
            throw new SmpException(startFailure + " (not retried for 5 s)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx64m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SmpAgentMain.class.getName());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new SmpException("cannot start the SMP agent: " + e.getMessage(), e);
        }
        toAgent = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        fromAgent = q;
        BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        Thread t = new Thread(() -> {
            try {
                for (String line; (line = r.readLine()) != null; ) {
                    q.add(line);
                }
            } catch (IOException e) {
                // the process went away; EOF below
            }
            q.add(EOF);
        }, "saba-smp-agent-reader");
        t.setDaemon(true);
        t.start();
        String first;
        try {
            first = q.poll(Math.max(callTimeoutMillis, 30_000), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            first = null;
        }
        if (!"READY".equals(first)) {
            kill();
            startFailure = "the SMP agent did not start: "
                    + (first == null ? "no answer" : first.equals(EOF) ? "it exited" : first.replaceFirst("^ERR ", ""));
            startFailedNanos = System.nanoTime();
            throw new SmpException(startFailure);
        }
        startFailure = null;
        LOG.info("SMP agent started (pid {})", process.pid());
    }

    private void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            try {
                toAgent.close(); // the agent exits at end of input
                if (process.waitFor(2, TimeUnit.SECONDS)) {
                    process = null;
                    return;
                }
            } catch (IOException | InterruptedException e) {
                // fall through to kill
            }
        }
        kill();
    }
}
