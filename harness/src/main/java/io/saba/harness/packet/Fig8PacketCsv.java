package io.saba.harness.packet;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
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
 * {@code jobs.csv} of a {@code fig8-packet} folder: one {@link Fig8PacketRow} per job, appended a setup at a time and
 * forced to disk, so a stopped campaign loses at most its setups in flight. Reading drops a torn last line.
 */
final class Fig8PacketCsv {
    private static final CsvMapper MAPPER = new CsvMapper();
    private static final CsvSchema SCHEMA = MAPPER.schemaFor(Fig8PacketRow.class).withHeader();

    private final Path file;

    Fig8PacketCsv(Path file) {
        this.file = file;
    }

    /** The rows written so far; none without a file. */
    List<Fig8PacketRow> read() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            text = text.substring(0, text.lastIndexOf('\n') + 1); // a line without its newline was torn
            List<Fig8PacketRow> rows = new ArrayList<>();
            try (MappingIterator<Fig8PacketRow> it = MAPPER.readerFor(Fig8PacketRow.class).with(SCHEMA)
                    .readValues(text)) {
                while (it.hasNextValue()) {
                    rows.add(it.nextValue());
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": not a fig8-packet jobs file: " + e.getMessage(), e);
        }
    }

    /** Cuts a last line that lacks its newline (a write that was stopped), so new rows start on a line of their own. */
    private static void dropTornTail(FileChannel ch) throws IOException {
        long size = ch.size();
        ByteBuffer one = ByteBuffer.allocate(1);
        for (long at = size - 1; at >= 0; at--) {
            one.clear();
            ch.read(one, at);
            if (one.get(0) == '\n') {
                if (at + 1 < size) {
                    ch.truncate(at + 1);
                }
                return;
            }
        }
        ch.truncate(0);
    }

    /** Appends one setup's rows, the header first in a new file. */
    synchronized void append(List<Fig8PacketRow> rows) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            dropTornTail(ch);
            boolean fresh = ch.size() == 0;
            String text = MAPPER.writer(fresh ? SCHEMA : SCHEMA.withoutHeader()).writeValueAsString(rows);
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), ch.size());
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
