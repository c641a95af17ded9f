package io.saba.harness.csv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A results file that a campaign appends to one setup at a time: a header line, then one row per line, quoted as
 * CSV quotes ({@link CsvLine}). Each append is
 * forced to disk, so a stopped campaign loses at most the rows in flight.
 *
 * <p>Reading is line by line, and only lines ended by their newline count: a write stopped inside a row's last value
 * leaves a line of the right width with a wrong number, which must never be read. An append first cuts such a torn
 * end off. A line that is not a row of the header's width, and any copy of the header, are skipped too. The file kinds built on it ({@code OutcomeCsv},
 * {@code JobsCsv}) turn their records into the string values of a row and back, and drop rows whose values do not
 * parse.
 */
public final class AppendOnlyCsv {
    private final Path file;
    private final List<String> header;

    /** A file with these column names, in this order. */
    public AppendOnlyCsv(Path file, List<String> header) {
        this.file = file;
        this.header = List.copyOf(header);
    }

    public Path file() {
        return file;
    }

    /** The header line as written, without its newline. */
    public String headerLine() {
        return String.join(",", header);
    }

    /** The rows written so far, in file order, each as many values as the header has columns; none without a file. */
    public List<List<String>> rows() {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
        List<List<String>> out = new ArrayList<>();
        for (String line : lines) {
            List<String> row = CsvLine.values(line);
            if (row != null && row.size() == header.size() && !row.equals(header)) {
                out.add(row);
            }
        }
        return out;
    }

    /** Appends rows (each as many values as the header has columns), the header first in a new file. */
    public synchronized void append(List<List<String>> rows) {
        StringBuilder text = new StringBuilder();
        for (List<String> row : rows) {
            if (row.size() != header.size()) {
                throw new IllegalArgumentException(file + ": a row of " + row.size() + " values for "
                        + header.size() + " columns: " + row);
            }
            text.append(CsvLine.of(row));
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            cutTornEnd(ch);
            long size = ch.size();
            String head = size == 0 ? CsvLine.of(header) : "";
            ch.write(ByteBuffer.wrap((head + text).getBytes(StandardCharsets.UTF_8)), size);
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Cuts a last line that lacks its newline (a write that was stopped), so it is neither read nor completed. */
    private static void cutTornEnd(FileChannel ch) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        for (long at = ch.size() - 1; at >= 0; at--) {
            one.clear();
            ch.read(one, at);
            if (one.get(0) == '\n') {
                ch.truncate(at + 1);
                return;
            }
        }
        ch.truncate(0);
    }
}
