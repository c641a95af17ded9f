package io.saba.profiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples how many bytes a set of network namespaces send on one device, every interval, to record how a workload
 * occupies its links over time (a traffic record). It reads {@code /proc/PID/net/dev}, which shows the devices of
 * the namespace PID lives in, through one idle process per namespace: a file read per sample, no process spawned,
 * so the sampling does not compete with the workload it watches on a small machine.
 */
public final class EgressSampler implements AutoCloseable {
    /** What was sampled: per namespace, the wall-clock time of each sample and the bytes sent up to it. */
    public record Samples(List<Long> epochMillis, Map<String, List<Long>> txBytes) {
        /**
         * Bytes per interval of {@code intervalMillis} between {@code fromMillis} and {@code toMillis} (wall clock),
         * for one namespace, read off the cumulative counter by linear interpolation between samples.
         */
        public double[] perInterval(String namespace, long fromMillis, long toMillis, long intervalMillis) {
            List<Long> tx = txBytes.get(namespace);
            int n = (int) Math.max(1, Math.round((toMillis - fromMillis) / (double) intervalMillis));
            double[] out = new double[n];
            double prev = at(tx, fromMillis);
            for (int i = 0; i < n; i++) {
                double next = at(tx, fromMillis + (i + 1) * intervalMillis);
                out[i] = Math.max(0, next - prev);
                prev = next;
            }
            return out;
        }

        private double at(List<Long> tx, long t) {
            if (epochMillis.isEmpty()) {
                return 0;
            }
            if (t <= epochMillis.get(0)) {
                return tx.get(0);
            }
            for (int i = 1; i < epochMillis.size(); i++) {
                long t1 = epochMillis.get(i);
                if (t <= t1) {
                    long t0 = epochMillis.get(i - 1);
                    double f = t1 == t0 ? 1 : (t - t0) / (double) (t1 - t0);
                    return tx.get(i - 1) + f * (tx.get(i) - tx.get(i - 1));
                }
            }
            return tx.get(tx.size() - 1);
        }
    }

    private final String device;
    private final Map<String, Process> anchors = new LinkedHashMap<>();
    private final List<Long> times = new ArrayList<>();
    private final Map<String, List<Long>> bytes = new LinkedHashMap<>();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "saba-egress-sampler");
        t.setDaemon(true);
        return t;
    });

    /**
     * Starts sampling {@code device} in each namespace every {@code intervalMillis}.
     *
     * @throws IOException if a namespace cannot be entered
     */
    public static EgressSampler start(List<String> namespaces, String device, long intervalMillis) throws IOException {
        EgressSampler s = new EgressSampler(device);
        try {
            for (String ns : namespaces) {
                Process p = new ProcessBuilder("ip", "netns", "exec", ns, "sleep", "infinity")
                        .redirectErrorStream(true).start();
                s.anchors.put(ns, p);
                s.bytes.put(ns, new ArrayList<>());
            }
            s.awaitAnchors();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        s.thread.scheduleAtFixedRate(s::sample, 0, intervalMillis, TimeUnit.MILLISECONDS);
        return s;
    }

    private EgressSampler(String device) {
        this.device = device;
    }

    /** `ip netns exec` switches namespace before it execs sleep: wait until each counter reads. */
    private void awaitAnchors() throws IOException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Map.Entry<String, Process> e : anchors.entrySet()) {
            while (true) {
                if (!e.getValue().isAlive()) {
                    throw new IOException("cannot enter namespace " + e.getKey() + ": `ip netns exec` exited "
                            + e.getValue().exitValue());
                }
                if (read(e.getValue()) >= 0 && e.getValue().info().command().orElse("").endsWith("sleep")) {
                    break;
                }
                if (System.nanoTime() > end) {
                    throw new IOException("namespace " + e.getKey() + " has no device " + device);
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", ie);
                }
            }
        }
    }

    private synchronized void sample() {
        long now = System.currentTimeMillis();
        List<Long> row = new ArrayList<>();
        for (Process p : anchors.values()) {
            long b = read(p);
            if (b < 0) {
                return; // a namespace went away: keep the samples so far
            }
            row.add(b);
        }
        times.add(now);
        int i = 0;
        for (List<Long> l : bytes.values()) {
            l.add(row.get(i++));
        }
    }

    /** The device's transmitted bytes as the namespace of {@code p} sees them, or -1. */
    private long read(Process p) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "net", "dev"),
                    StandardCharsets.US_ASCII)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals(device)) {
                    String[] f = line.substring(colon + 1).trim().split("\\s+");
                    return Long.parseLong(f[8]); // receive: 8 fields, then transmit bytes
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** What was sampled so far. */
    public synchronized Samples samples() {
        Map<String, List<Long>> copy = new LinkedHashMap<>();
        bytes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return new Samples(List.copyOf(times), copy);
    }

    @Override
    public void close() {
        thread.shutdownNow();
        anchors.values().forEach(Process::destroy);
    }
}
