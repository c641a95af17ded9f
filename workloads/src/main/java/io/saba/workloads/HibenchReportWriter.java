package io.saba.workloads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Appends lines in HiBench's report/hibench.report format: a header the first time, then
 * {@code Type Date Time Input_data_size Duration(s) Throughput(bytes/s) Throughput/node}, fixed-width columns.
 */
public final class HibenchReportWriter {
    public static final String HEADER = String.format(Locale.ROOT, "%-24s %-10s %-8s %-20s %-20s %-20s %-20s",
            "Type", "Date", "Time", "Input_data_size", "Duration(s)", "Throughput(bytes/s)", "Throughput/node");

    private HibenchReportWriter() {
    }

    public static String line(String type, LocalDateTime at, long inputBytes, double seconds, int nodes) {
        long throughput = seconds > 0 ? Math.round(inputBytes / seconds) : 0;
        return String.format(Locale.ROOT, "%-24s %-10s %-8s %-20d %-20.3f %-20d %-20d", type,
                at.format(DateTimeFormatter.ISO_LOCAL_DATE), at.format(DateTimeFormatter.ofPattern("HH:mm:ss")),
                inputBytes, seconds, throughput, throughput / Math.max(1, nodes));
    }

    /** Appends {@code line}, writing the header first if the file is new or empty. */
    public static void append(Path report, String line) throws IOException {
        Path dir = report.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean fresh = !Files.exists(report) || Files.size(report) == 0;
        Files.writeString(report, (fresh ? HEADER.stripTrailing() + "\n" : "") + line.stripTrailing() + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
