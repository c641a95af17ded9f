package io.saba.profiler;

import io.saba.core.corun.TrafficRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run's traffic record beside its log ({@code NAME-b100-r0.traffic.csv}): a header {@value #HEADER}, then one
 * line per interval with its start (seconds into the job) and the fraction of the link used.
 */
final class TrafficRecordFile {
    static final String HEADER = "seconds,utilisation";

    private TrafficRecordFile() {
    }

    static Path besideLog(Path log) {
        String name = log.getFileName().toString();
        return log.resolveSibling(name.replaceFirst("\\.log$", "") + ".traffic.csv");
    }

    static void write(Path file, TrafficRecord r) throws IOException {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        double[] u = r.utilisation();
        for (int i = 0; i < u.length; i++) {
            b.append(String.format(Locale.ROOT, "%.3f,%.4f%n", i * r.intervalSeconds(), u[i]));
        }
        Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
    }

    /** The record, or throws IOException naming the file and line that is not one. */
    static TrafficRecord read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).trim().equals(HEADER)) {
            throw new IOException(file + ": not a traffic record (header " + HEADER + ")");
        }
        List<Double> starts = new ArrayList<>();
        List<Double> u = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] f = lines.get(i).split(",");
            try {
                starts.add(Double.parseDouble(f[0]));
                u.add(Double.parseDouble(f[1]));
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + ": not '" + HEADER + "': " + lines.get(i), e);
            }
        }
        if (u.size() < 2) {
            throw new IOException(file + ": a traffic record needs at least two intervals");
        }
        try {
            return new TrafficRecord(starts.get(1) - starts.get(0), u.stream().mapToDouble(Double::doubleValue)
                    .toArray());
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }
}
