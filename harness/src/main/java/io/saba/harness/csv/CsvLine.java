package io.saba.harness.csv;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * One row of the harness's CSV files as one line, through Jackson's CSV module: a value holding a comma or a quote is
 * quoted (a quote doubled), nothing else is, so a file whose values need no quoting reads exactly as the plain
 * comma-joined text. Callers format their numbers themselves, so each file keeps its own decimals. A row is one line:
 * a value may not hold a line break.
 */
public final class CsvLine {
    private static final CsvMapper MAPPER =
            CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();
    private static final ObjectWriter LINE = MAPPER.writer();
    private static final ObjectReader FIELDS = MAPPER.readerFor(String[].class);

    private CsvLine() {
    }

    /** The values as one line of CSV, with its newline. */
    public static String of(List<String> values) {
        return of(values.toArray(String[]::new));
    }

    /** The values as one line of CSV, with its newline. */
    public static String of(String... values) {
        for (String v : values) {
            if (v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("a line break in a CSV value: " + v);
            }
        }
        try {
            return LINE.writeValueAsString(values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The values of one line, or null for a blank line or one that is not CSV (a torn quoted value). */
    public static List<String> values(String line) {
        if (line.isBlank()) {
            return null;
        }
        try {
            String[] values = FIELDS.readValue(line);
            return values == null ? null : Arrays.asList(values);
        } catch (IOException e) {
            return null;
        }
    }
}
