package io.saba.profiler;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.saba.core.corun.TrafficRecord;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A run's traffic record beside its log ({@code NAME-b100-r0.traffic.csv}): a header {@value #HEADER}, then one
 * line per interval with its start (seconds into the job) and the fraction of the link used. Jackson's CSV module
 * writes and reads it.
 */
final class TrafficRecordFile {
    static final String HEADER = "seconds,utilisation";
    private static final String[] COLUMNS = HEADER.split(",");
    private static final CsvMapper MAPPER = CsvMapper.builder().enable(CsvParser.Feature.WRAP_AS_ARRAY)
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES).build();

    private TrafficRecordFile() {
    }

    static Path besideLog(Path log) {
        String name = log.getFileName().toString();
        return log.resolveSibling(name.replaceFirst("\\.log$", "") + ".traffic.csv");
    }

    static void write(Path file, TrafficRecord r) throws IOException {
        double[] u = r.utilisation();
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             SequenceWriter rows = MAPPER.writerFor(String[].class).writeValues(out)) {
            rows.write(COLUMNS);
            for (int i = 0; i < u.length; i++) {
                rows.write(new String[] {String.format(Locale.ROOT, "%.3f", i * r.intervalSeconds()),
                        String.format(Locale.ROOT, "%.4f", u[i])});
            }
        }
    }

    /** The record, or throws IOException naming the file and line that is not one. */
    static TrafficRecord read(Path file) throws IOException {
        List<Double> starts = new ArrayList<>();
        List<Double> u = new ArrayList<>();
        try (MappingIterator<String[]> rows = MAPPER.readerFor(String[].class).readValues(file.toFile())) {
            if (!rows.hasNext() || !Arrays.equals(trimmed(rows.next()), COLUMNS)) {
                throw new IOException(file + ": not a traffic record (header " + HEADER + ")");
            }
            while (rows.hasNext()) {
                long line = rows.getCurrentLocation().getLineNr(); // after hasNext: the row about to be read
                String[] f = rows.next();
                try {
                    if (f.length != COLUMNS.length) {
                        throw new IllegalArgumentException(f.length + " values");
                    }
                    starts.add(Double.parseDouble(f[0]));
                    u.add(Double.parseDouble(f[1]));
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + line + ": not '" + HEADER + "': " + String.join(",", f),
                            e);
                }
            }
        } catch (RuntimeException e) { // Jackson's, for text that is not CSV (a torn quoted value)
            throw new IOException(file + ": not CSV: " + e.getMessage(), e);
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

    private static String[] trimmed(String[] values) {
        return Arrays.stream(values).map(String::trim).toArray(String[]::new);
    }
}
