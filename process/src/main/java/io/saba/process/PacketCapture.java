package io.saba.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump on one device while something runs, read back with tshark: every TCP segment's addresses, ports, payload
 * and DSCP (the IPv4 TOS byte's or the IPv6 traffic class's upper six bits). What every check of tags on the wire
 * uses: the plugins' tests on loopback, the real-cluster tests, the testbed's proof on a switch port.
 *
 * <p>tcpdump runs with {@code --immediate-mode} and {@code -U}: libpcap otherwise hands packets over from its ring a
 * block at a time, so a last burst before the capture stops never reaches the file. It is stopped with SIGTERM,
 * which makes it flush and close the file.
 */
public final class PacketCapture implements AutoCloseable {
    private static final long START_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long SETTLED_MILLIS = 300;
    private static final long SETTLE_LIMIT_MILLIS = 5_000;
    private static final String[] FIELDS = {"ip.src", "ipv6.src", "tcp.srcport", "ip.dst", "ipv6.dst",
            "tcp.dstport", "tcp.len", "ip.dsfield.dscp", "ipv6.tclass"};

    /** One TCP segment: who sent it to whom, its payload bytes and its DSCP. */
    public record Segment(String src, int srcPort, String dst, int dstPort, int payload, int dscp) {
        /** Whether either end's port is in {@code from..to}. */
        public boolean touches(int from, int to) {
            return (srcPort >= from && srcPort <= to) || (dstPort >= from && dstPort <= to);
        }
    }

    private final Process tcpdump;
    private final Path file;

    private PacketCapture(Process tcpdump, Path file) {
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
        return Host.root() ? null : "capturing packets needs root";
    }

    /** Captures on loopback; see {@link #start(List, String, String, Path)}. */
    public static PacketCapture onLoopback(String filter, Path file) throws IOException {
        return start(List.of(), "lo", filter, file);
    }

    /**
     * Starts tcpdump and returns once it listens.
     *
     * @param prefix what runs tcpdump where the device is, e.g. {@code ip netns exec sw} (empty: here)
     * @param device the device to capture on
     * @param filter a pcap filter, e.g. {@code tcp portrange 40000-40099}
     * @param file   the capture file; tcpdump's own messages go beside it ({@code .log})
     * @throws IOException if tcpdump exits or does not listen within 30 s, with what it said
     */
    public static PacketCapture start(List<String> prefix, String device, String filter, Path file)
            throws IOException {
        Path log = file.resolveSibling(file.getFileName() + ".log");
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("tcpdump", "-i", device, "-n", "--immediate-mode", "-U", "-s", "128", "-w",
                file.toString(), filter));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + START_NANOS;
        try {
            while (!said(log).contains("listening on")) {
                if (!p.isAlive() || System.nanoTime() > end) {
                    p.destroyForcibly();
                    throw new IOException("`" + String.join(" ", command) + "` did not start capturing: "
                            + said(log).strip());
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while tcpdump started", e);
        }
        return new PacketCapture(p, file);
    }

    private void settle() throws IOException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_LIMIT_MILLIS);
        long size = -1;
        long stableSince = System.nanoTime();
        try {
            while (System.nanoTime() < end) {
                long now = Files.exists(file) ? Files.size(file) : 0;
                if (now != size) {
                    size = now;
                    stableSince = System.nanoTime();
                } else if (System.nanoTime() - stableSince >= TimeUnit.MILLISECONDS.toNanos(SETTLED_MILLIS)) {
                    return;
                }
                Thread.sleep(25);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String said(Path log) throws IOException {
        // bytes, not readString: a line being written may end inside a multi-byte character
        return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    }

    /**
     * Stops the capture and returns every TCP segment in it, in capture order. Waits first until the file has not
     * grown for {@value #SETTLED_MILLIS} ms (at most {@value #SETTLE_LIMIT_MILLIS} ms): tcpdump stops reading its ring
     * at SIGTERM, so packets sent just before would be counted "received by filter" but never written.
     */
    public List<Segment> stop() throws IOException {
        settle();
        close();
        List<String> command = new ArrayList<>(List.of("tshark", "-r", file.toString(), "-Y", "tcp", "-T", "fields",
                "-E", "separator=,", "-E", "occurrence=f"));
        for (String f : FIELDS) {
            command.addAll(List.of("-e", f));
        }
        CommandResult r = new ProcessRunner(Duration.ofMinutes(2)).run(command);
        if (!r.ok()) {
            throw new IOException("tshark could not read " + file + " (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return parse(r.stdout());
    }

    /** tshark's lines of {@link #FIELDS}; a line without ports (not TCP after all) is skipped. */
    static List<Segment> parse(String tshark) {
        List<Segment> out = new ArrayList<>();
        for (String line : tshark.split("\n")) {
            String[] f = line.split(",", -1);
            if (f.length != FIELDS.length || f[2].isEmpty() || f[5].isEmpty()) {
                continue;
            }
            boolean v6 = f[0].isEmpty();
            int dscp = v6 ? (f[8].isEmpty() ? 0 : Integer.decode(f[8]) >> 2)
                    : (f[7].isEmpty() ? 0 : Integer.decode(f[7]));
            out.add(new Segment(v6 ? f[1] : f[0], Integer.parseInt(f[2]), v6 ? f[4] : f[3], Integer.parseInt(f[5]),
                    f[6].isEmpty() ? 0 : Integer.parseInt(f[6]), dscp));
        }
        return out;
    }

    /** Stops tcpdump (SIGTERM, so it flushes), forcibly after 30 s. */
    @Override
    public void close() {
        if (tcpdump.isAlive()) {
            tcpdump.destroy();
            try {
                if (!tcpdump.waitFor(30, TimeUnit.SECONDS)) {
                    tcpdump.destroyForcibly();
                }
            } catch (InterruptedException e) {
                tcpdump.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
