package io.saba.profiler;

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
 * included, are not repeated). Columns: {@value #HEADER}.
 */
public final class RunJournal {
    public static final String HEADER = "bandwidth_percent,repetition,outcome,seconds,detail";

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
            String[] f = line.split(",", 5);
            try {
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

    public void append(RunRecord r) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        String line = String.format(Locale.ROOT, "%s,%d,%s,%s,%s%n", CommandHookRateLimiter.number(r.bandwidthPercent()),
                r.repetition(), r.outcome(), r.completed() ? String.format(Locale.ROOT, "%.3f", r.seconds()) : "",
                r.detail().replace('\n', ' ').replace(',', ';'));
        Files.writeString(file, (fresh ? HEADER + "\n" : "") + line, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.SYNC);
    }
}
