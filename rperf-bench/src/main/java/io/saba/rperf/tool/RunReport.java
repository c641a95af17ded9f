package io.saba.rperf.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Prints a {@link RunResult} in perftest's columns and writes it as CSV (one row per generator and metric). */
public final class RunReport {
    private RunReport() {
    }

    public static void print(RunResult r, PrintStream out) {
        int i = 0;
        for (LatencyResult l : r.latency()) {
            i++;
            out.printf("LSG %d (%s): end-to-end RTT (T_W - T_P)%n", i, l.spec());
            out.println(PerftestFormat.LAT_HEADER);
            out.println(PerftestFormat.latencyLine(l.spec().size(), l.endToEnd()));
            if (l.subtracted() != null) {
                out.printf("LSG %d: loopback-subtracted RTT (T_W - T_L), loopback T_L - T_P median %.2f us, "
                        + "%d samples with T_L > T_W%n", i, l.loopback().getValueAtPercentile(50) / 1e3, l.negative());
                out.println(PerftestFormat.LAT_HEADER);
                out.println(PerftestFormat.latencyLine(l.spec().size(), l.subtracted()));
            }
        }
        i = 0;
        if (!r.bandwidth().isEmpty()) {
            out.println(PerftestFormat.BW_HEADER + "  generator");
            for (BandwidthResult b : r.bandwidth()) {
                i++;
                out.println(PerftestFormat.bandwidthLine(b) + "  BSG " + i + " (" + b.spec() + ")");
            }
            out.printf(Locale.ROOT, "total BSG bandwidth: %.2f Gb/s%n", r.totalGbps());
        }
    }

    public static List<String> csv(RunResult r) {
        List<String> rows = new ArrayList<>();
        rows.add("generator,kind,bytes,tos,metric,iterations,min_us,median_us,mean_us,p99_us,p999_us,max_us,gbps,mpps");
        int i = 0;
        for (LatencyResult l : r.latency()) {
            i++;
            rows.add(latRow(i, l, "rtt_end_to_end", l.endToEnd()));
            if (l.subtracted() != null) {
                rows.add(latRow(i, l, "rtt_loopback_subtracted", l.subtracted()));
                rows.add(latRow(i, l, "loopback", l.loopback()));
            }
        }
        for (BandwidthResult b : r.bandwidth()) {
            i++;
            rows.add(String.format(Locale.ROOT, "%d,bsg,%d,%d,bandwidth,%d,,,,,,,%.4f,%.6f", i, b.spec().size(),
                    b.spec().tos(), b.messages(), b.gbps(), b.mpps()));
        }
        return rows;
    }

    private static String latRow(int i, LatencyResult l, String metric, Histogram h) {
        return String.format(Locale.ROOT, "%d,lsg,%d,%d,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,,", i, l.spec().size(),
                l.spec().tos(), metric, h.getTotalCount(), h.getMinValue() / 1e3, h.getValueAtPercentile(50) / 1e3,
                h.getMean() / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
                h.getMaxValue() / 1e3);
    }

    public static void writeCsv(RunResult r, Path file) throws IOException {
        Files.write(file, csv(r), StandardCharsets.UTF_8);
    }
}
