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
 * <p>Reading is line by line, so a torn line (a write that was stopped) is skipped on its own and never swallows
 * the lines after it; a line that is not a row of the header's width, and any copy of the header, are skipped too.
 * An append after a torn line starts on a new line. The file kinds built on it ({@code OutcomeCsv},
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
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
            long size = ch.size();
            String head = size == 0 ? CsvLine.of(header) : endsTorn(ch) ? "\n" : "";
            ch.write(ByteBuffer.wrap((head + text).getBytes(StandardCharsets.UTF_8)), size);
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean endsTorn(FileChannel ch) throws IOException {
        ByteBuffer last = ByteBuffer.allocate(1);
        ch.read(last, ch.size() - 1);
        return last.get(0) != '\n';
    }
}
