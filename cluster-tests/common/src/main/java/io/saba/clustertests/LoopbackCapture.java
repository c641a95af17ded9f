package io.saba.clustertests;

import io.saba.process.Host;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump on {@code lo} for a block of ports, read back with tshark: the TCP segments that carry data, with the
 * DSCP of their IP header. A cluster's servers are pinned to the block ({@link Ports#freeBlock}), so the filter
 * sees exactly their connections and nothing else this machine sends over loopback.
 */
public final class LoopbackCapture implements AutoCloseable {
    /** One data segment: ports, payload bytes, the IP header's DSCP. */
    public record Segment(int srcPort, int dstPort, int payload, int dscp) {
        public boolean touches(int from, int to) {
            return (srcPort >= from && srcPort <= to) || (dstPort >= from && dstPort <= to);
        }
    }

    private final Process tcpdump;
    private final Path file;

    private LoopbackCapture(Process tcpdump, Path file) {
        this.tcpdump = tcpdump;
        this.file = file;
    }

    /** Why no capture can run here (a tool missing, not root), or null when one can. */
    public static String unavailable() {
        for (String tool : new String[] {"tcpdump", "tshark"}) {
            if (!Host.onPath(tool)) {
                return tool + " is not installed (.ci/run installs it)";
            }
        }
        return Host.root() ? null : "capturing on loopback needs root";
    }

    /**
     * Starts capturing TCP on {@code lo} for ports {@code from..to} and returns once tcpdump listens. With
     * {@code --immediate-mode}, since libpcap otherwise hands packets over a ring block at a time and a job's last
     * burst before the capture stops would never reach the file.
     */
    public static LoopbackCapture start(Path file, int from, int to) throws IOException, InterruptedException {
        Path log = file.resolveSibling(file.getFileName() + ".log");
        Process p = new ProcessBuilder("tcpdump", "-i", "lo", "-n", "--immediate-mode", "-U", "-s", "128", "-w",
                file.toString(), "tcp portrange " + from + "-" + to).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(log) && Files.readString(log).contains("listening on"))) {
            if (!p.isAlive() || System.nanoTime() > end) {
                p.destroyForcibly();
                throw new IOException("tcpdump did not start: " + (Files.exists(log) ? Files.readString(log) : ""));
            }
            Thread.sleep(50);
        }
        return new LoopbackCapture(p, file);
    }

    /** Stops the capture and returns its segments with a payload (handshakes and pure ACKs left out). */
    public List<Segment> stop() throws IOException, InterruptedException {
        close();
        Process t = new ProcessBuilder("tshark", "-r", file.toString(), "-Y", "tcp.len > 0", "-T", "fields",
                "-E", "separator=,", "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "tcp.len",
                "-e", "ip.dsfield.dscp").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(t.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!t.waitFor(2, TimeUnit.MINUTES) || t.exitValue() != 0) {
            throw new IOException("tshark could not read " + file);
        }
        List<Segment> segments = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split(",");
            if (f.length == 4 && !f[3].isEmpty()) {
                segments.add(new Segment(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                        Integer.decode(f[3])));
            }
        }
        return segments;
    }

    @Override
    public void close() throws InterruptedException {
        if (tcpdump.isAlive()) {
            tcpdump.destroy(); // SIGTERM: tcpdump flushes and closes its file
            if (!tcpdump.waitFor(30, TimeUnit.SECONDS)) {
                tcpdump.destroyForcibly();
            }
        }
    }
}
