package io.saba.rperf.tool;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Prints a {@link RunResult} in perftest's columns and writes it as CSV (one row per generator and metric), through
 * Jackson's CSV module: the columns are {@link #COLUMNS}, a row leaves a column empty where its kind has no figure.
 */
public final class RunReport {
    static final String[] COLUMNS = {"generator", "kind", "bytes", "tos", "metric", "iterations", "min_us",
        "median_us", "mean_us", "p99_us", "p999_us", "max_us", "gbps", "mpps"};
    private static final ObjectWriter LINES = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build().writerFor(String[].class);

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

    /** The report's CSV, one line per row, the header first. */
    public static List<String> csv(RunResult r) {
        return csvText(r).lines().toList();
    }

    public static void writeCsv(RunResult r, Path file) throws IOException {
        Files.writeString(file, csvText(r), StandardCharsets.UTF_8);
    }

    private static String csvText(RunResult r) {
        StringWriter text = new StringWriter();
        try (SequenceWriter rows = LINES.writeValues(text)) {
            rows.write(COLUMNS);
            int i = 0;
            for (LatencyResult l : r.latency()) {
                i++;
                rows.write(latencyRow(i, l, "rtt_end_to_end", l.endToEnd()));
                if (l.subtracted() != null) {
                    rows.write(latencyRow(i, l, "rtt_loopback_subtracted", l.subtracted()));
                    rows.write(latencyRow(i, l, "loopback", l.loopback()));
                }
            }
            for (BandwidthResult b : r.bandwidth()) {
                i++;
                rows.write(new String[] {Integer.toString(i), "bsg", Integer.toString(b.spec().size()),
                        Integer.toString(b.spec().tos()), "bandwidth", Long.toString(b.messages()), "", "", "", "",
                        "", "", num("%.4f", b.gbps()), num("%.6f", b.mpps())});
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }

    private static String[] latencyRow(int i, LatencyResult l, String metric, Histogram h) {
        return new String[] {Integer.toString(i), "lsg", Integer.toString(l.spec().size()),
                Integer.toString(l.spec().tos()), metric, Long.toString(h.getTotalCount()),
                num("%.3f", h.getMinValue() / 1e3), num("%.3f", h.getValueAtPercentile(50) / 1e3),
                num("%.3f", h.getMean() / 1e3), num("%.3f", h.getValueAtPercentile(99) / 1e3),
                num("%.3f", h.getValueAtPercentile(99.9) / 1e3), num("%.3f", h.getMaxValue() / 1e3), "", ""};
    }

    private static String num(String format, double v) {
        return String.format(Locale.ROOT, format, v);
    }
}
