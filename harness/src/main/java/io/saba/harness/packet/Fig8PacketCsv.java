package io.saba.harness.packet;

import io.saba.harness.csv.AppendOnlyCsv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jobs.csv} of a {@code fig8-packet} folder: one {@link Fig8PacketRow} per job and scheme, appended a
 * (setup, scheme) at a time through {@link AppendOnlyCsv}, so a stopped campaign loses at most what was in flight.
 */
final class Fig8PacketCsv {
    private static final List<String> HEADER = List.of("setup", "scheme", "job", "workload", "datasetScale",
            "instances", "seconds");

    private final AppendOnlyCsv file;

    Fig8PacketCsv(Path file) {
        this.file = new AppendOnlyCsv(file, HEADER);
    }

    /** The rows written so far; none without a file. A row whose values do not parse names the file and fails. */
    List<Fig8PacketRow> read() {
        List<Fig8PacketRow> out = new ArrayList<>();
        for (List<String> v : file.rows()) {
            try {
                out.add(new Fig8PacketRow(Integer.parseInt(v.get(0)), Fig8Scheme.valueOf(v.get(1)), v.get(2),
                        v.get(3), Double.parseDouble(v.get(4)), Integer.parseInt(v.get(5)),
                        Double.parseDouble(v.get(6))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file.file() + ": not a fig8-packet row: " + v, e);
            }
        }
        return out;
    }

    /** Appends rows, the header first in a new file. */
    void append(List<Fig8PacketRow> rows) {
        List<List<String>> values = new ArrayList<>();
        for (Fig8PacketRow r : rows) {
            values.add(List.of(Integer.toString(r.setup()), r.scheme().name(), r.job(), r.workload(),
                    Double.toString(r.datasetScale()), Integer.toString(r.instances()), Double.toString(r.seconds())));
        }
        file.append(values);
    }
}
