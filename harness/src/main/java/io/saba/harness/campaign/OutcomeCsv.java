package io.saba.harness.campaign;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-job results file of a campaign, appended one setup at a time so an interrupted campaign loses at most
 * the setups in flight. A setup counts as done only when all its rows are present (a torn last write is
 * dropped on reading).
 */
public final class OutcomeCsv {
    public static final String HEADER =
            "setup,job,workload,dataset_scale,instances,baseline_s,policy_s,speedup";

    private final Path file;

    public OutcomeCsv(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** Rows already written; empty if there is no file. */
    public List<JobOutcome> read() {
        List<JobOutcome> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isBlank() || line.startsWith("setup,")) {
                    continue;
                }
                String[] f = line.split(",");
                if (f.length != 8) {
                    continue; // torn write from an interrupted run
                }
                try {
                    out.add(new JobOutcome(Integer.parseInt(f[0]), f[1], f[2], Double.parseDouble(f[3]),
                            Integer.parseInt(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6])));
                } catch (NumberFormatException e) {
                    // torn write: ignore the row; its setup will be incomplete and rerun
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Appends one setup's rows (creating the file with its header first). */
    public synchronized void append(List<JobOutcome> rows) {
        try {
            boolean fresh = !Files.exists(file);
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                if (fresh) {
                    w.write(HEADER);
                    w.newLine();
                }
                StringBuilder sb = new StringBuilder();
                for (JobOutcome o : rows) {
                    sb.append(String.format(Locale.ROOT, "%d,%s,%s,%s,%d,%.6f,%.6f,%.6f%n", o.setup(), o.job(),
                            o.workload(), o.datasetScale(), o.instances(), o.baselineSeconds(), o.policySeconds(),
                            o.speedup()));
                }
                w.write(sb.toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
