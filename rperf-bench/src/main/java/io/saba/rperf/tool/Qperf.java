package io.saba.rperf.tool;

import io.saba.process.CommandResult;
import io.saba.process.ProcessRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs Debian's {@code qperf} (tcp_lat, tcp_bw) against a host, for printing beside RPerf's figures.
 * qperf needs its own server ({@code qperf} with no arguments) on the far side, port 19765 by default.
 */
public final class Qperf {
    /**
     * qperf's two TCP figures. qperf's tcp_lat prints a one-way latency (half of its ping-pong round trip),
     * so {@link #rttUs} doubles it for comparison with RPerf's round trips.
     */
    public record Figures(double latencyUs, double bandwidthGbps, String raw) {
        public double rttUs() {
            return 2 * latencyUs;
        }
    }

    private static final Pattern LAT = Pattern.compile("latency\\s*=\\s*([0-9.]+)\\s*(ns|us|ms|sec)");
    private static final Pattern BW = Pattern.compile("bw\\s*=\\s*([0-9.]+)\\s*(bytes/sec|KB/sec|MB/sec|GB/sec)");

    private Qperf() {
    }

    /** Where qperf is, or empty with nothing said: callers print why they skip. */
    public static Optional<String> binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            java.io.File f = new java.io.File(dir, "qperf");
            if (f.canExecute()) {
                return Optional.of(f.getPath());
            }
        }
        return Optional.empty();
    }

    /** Starts a qperf server on this host; the caller destroys the process it gets. */
    public static Process startServer(int port) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary().orElseThrow(), "--listen_port", String.valueOf(port)));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Runs {@code qperf host -lp port -m size -t seconds tcp_lat tcp_bw} and parses its output. */
    public static Figures run(String host, int port, int size, int seconds) throws IOException, InterruptedException {
        List<String> cmd = List.of(binary().orElseThrow(), host, "--listen_port", String.valueOf(port), "-m",
                String.valueOf(size), "-t", String.valueOf(seconds), "tcp_lat", "tcp_bw");
        return run(cmd, Duration.ofSeconds(4L * seconds + 30));
    }

    /**
     * Runs {@code cmd} with the shared runner, so a qperf that hangs (a server that stopped answering) is killed
     * at {@code timeout} instead of holding the caller.
     */
    static Figures run(List<String> cmd, Duration timeout) throws IOException, InterruptedException {
        CommandResult r = new ProcessRunner(timeout).run(cmd);
        if (r.interrupted()) {
            Thread.interrupted(); // the exception carries the interrupt from here
            throw new InterruptedException("interrupted while running " + String.join(" ", cmd));
        }
        String out = r.stdout() + r.stderr();
        if (r.timedOut()) {
            throw new IOException("qperf did not finish within " + timeout.toSeconds() + " s: "
                    + String.join(" ", cmd) + "\n" + out);
        }
        if (!r.ok()) {
            throw new IOException("qperf failed: " + String.join(" ", cmd) + "\n" + out);
        }
        return parse(out);
    }

    static Figures parse(String out) {
        Matcher l = LAT.matcher(out);
        Matcher b = BW.matcher(out);
        double lat = l.find() ? toUs(Double.parseDouble(l.group(1)), l.group(2)) : Double.NaN;
        double bw = b.find() ? toGbps(Double.parseDouble(b.group(1)), b.group(2)) : Double.NaN;
        return new Figures(lat, bw, out.trim());
    }

    private static double toUs(double v, String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "ns" -> v / 1e3;
            case "ms" -> v * 1e3;
            case "sec" -> v * 1e6;
            default -> v;
        };
    }

    private static double toGbps(double v, String unit) {
        double bytesPerSec = switch (unit) {
            case "KB/sec" -> v * 1e3;
            case "MB/sec" -> v * 1e6;
            case "GB/sec" -> v * 1e9;
            default -> v;
        };
        return bytesPerSec * 8 / 1e9;
    }
}
