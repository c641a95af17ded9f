package io.saba.profiler;

import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every run of one workload's profile, one CSV line each, appended as soon as the run ends: the raw record the
 * table is fitted from, and what an interrupted profile resumes from (runs already in the journal, failures
 * included, are not repeated). Columns: {@value #HEADER}; Jackson's CSV module writes and reads them, so a detail
 * holding a comma or a quote is quoted and reads back as it was.
 */
public final class RunJournal {
    public static final String HEADER = "bandwidth_percent,repetition,outcome,seconds,detail";

    private static final CsvMapper MAPPER =
            CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();
    private static final ObjectWriter LINE = MAPPER.writer();
    private static final ObjectReader FIELDS = MAPPER.readerFor(String[].class);

    private final Path file;

    public RunJournal(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public List<RunRecord> read() throws IOException {
        List<RunRecord> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                String[] f = fields(line);
                RunRecord.Outcome outcome = RunRecord.Outcome.valueOf(f[2]);
                double percent = Double.parseDouble(f[0]);
                int rep = Integer.parseInt(f[1]);
                String detail = f.length > 4 ? f[4] : "";
                out.add(outcome == RunRecord.Outcome.COMPLETED
                        ? RunRecord.completed(percent, rep, Double.parseDouble(f[3]))
                        : RunRecord.failed(percent, rep, outcome, detail));
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + ": not a run record (" + HEADER + "): " + line, e);
            }
        }
        return out;
    }

    /**
     * The values of one line. Journals with unquoted details (a comma in a detail written as {@code ;}) stay
     * readable: a line that is not CSV that way (a detail opening with a quote) is split as they were written, the
     * detail being everything after the fourth comma.
     */
    static String[] fields(String line) {
        try {
            String[] f = FIELDS.readValue(line);
            if (f != null && f.length <= 5) {
                return f;
            }
        } catch (IOException e) {
            // not CSV: an unquoted detail of an older journal
        }
        return line.split(",", 5);
    }

    /** Appends one run (forced to disk), the header first in a new file. */
    public void append(RunRecord r) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        String line = LINE.writeValueAsString(new String[] {CommandHookRateLimiter.number(r.bandwidthPercent()),
                Integer.toString(r.repetition()), r.outcome().name(),
                r.completed() ? String.format(Locale.ROOT, "%.3f", r.seconds()) : "",
                r.detail().replace('\n', ' ').replace('\r', ' ')});
        Files.writeString(file, (fresh ? HEADER + "\n" : "") + line, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.SYNC);
    }
}
