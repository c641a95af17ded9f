package io.saba.flink;

import io.saba.process.Host;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** tcpdump on loopback while a test runs, read back with tshark: one {@link Packet} per TCP segment. */
final class PacketCapture implements AutoCloseable {
    /** One captured segment: ports, the IP header's DSCP, the TCP payload length. */
    record Packet(int srcPort, int dstPort, int dscp, int length) {
    }

    private final Process tcpdump;
    private final Path file;

    private PacketCapture(Process tcpdump, Path file) {
        this.tcpdump = tcpdump;
        this.file = file;
    }

    /** Why a capture cannot run here, or null when it can (tcpdump and tshark installed, root). */
    static String unavailable() {
        for (String tool : new String[] {"tcpdump", "tshark"}) {
            if (!Host.onPath(tool)) {
                return tool + " is not installed (.ci/run installs it as root)";
            }
        }
        if (!Host.root()) {
            return "capturing on loopback needs root";
        }
        return null;
    }

    /**
     * Starts capturing TCP headers on lo for ports {@code from..to}; returns once tcpdump listens.
     *
     * <p>{@code --immediate-mode}: without it libpcap hands packets over from its kernel ring a block at a time,
     * when a block fills or its timeout passes, so a short burst just before {@link #close} (a quick job on an idle
     * machine) is still in the ring when tcpdump exits and never reaches the file; {@code -U} flushes only what
     * tcpdump has received.
     */
    static PacketCapture start(Path file, int from, int to) throws IOException {
        Process p = new ProcessBuilder("tcpdump", "-i", "lo", "-n", "--immediate-mode", "-U", "-s", "128", "-w", file.toString(),
                "tcp portrange " + from + "-" + to).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = err.readLine()) != null && !line.contains("listening on")) {
            // tcpdump prints "listening on lo ..." once the capture is live
        }
        if (line == null) {
            throw new IOException("tcpdump did not start (exit " + p.exitValue() + ")");
        }
        Thread drain = new Thread(() -> {
            try {
                err.lines().forEach(l -> { });
            } catch (java.io.UncheckedIOException e) {
                // closed when tcpdump is stopped
            }
        }, "tcpdump-stderr");
        drain.setDaemon(true);
        drain.start();
        return new PacketCapture(p, file);
    }

    /** Stops the capture and decodes it. */
    List<Packet> stopAndRead() throws IOException, InterruptedException {
        close();
        Process t = new ProcessBuilder("tshark", "-r", file.toString(), "-T", "fields", "-E", "separator=,",
                "-e", "tcp.srcport", "-e", "tcp.dstport", "-e", "ip.dsfield.dscp", "-e", "tcp.len")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Packet> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(t.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(",");
                if (f.length == 4 && !f[0].isEmpty()) {
                    out.add(new Packet(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.decode(f[2]),
                            Integer.parseInt(f[3])));
                }
            }
        }
        if (!t.waitFor(2, TimeUnit.MINUTES) || t.exitValue() != 0) {
            throw new IOException("tshark failed to read " + file);
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        if (tcpdump.isAlive()) {
            tcpdump.destroy(); // SIGTERM: tcpdump flushes and closes the file
            if (!tcpdump.waitFor(30, TimeUnit.SECONDS)) {
                tcpdump.destroyForcibly();
            }
        }
    }
}
