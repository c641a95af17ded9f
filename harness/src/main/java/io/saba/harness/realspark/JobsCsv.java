package io.saba.harness.realspark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * jobs.csv of a real-Spark campaign: one row per job, appended (and forced to disk) one setup at a time, so an
 * interrupted campaign keeps every finished setup. A failed run is written as {@code failed} with its reason in
 * the note. A torn last line is dropped on reading; if a setup appears twice (rerun after a torn write), its last
 * copy wins.
 */
public final class JobsCsv {
    public static final String HEADER = "setup,job,workload,factor,instances,hosts,baseline_s,saba_s,speedup,note";
    static final String FAILED = "failed";

    private final Path file;

    public JobsCsv(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** Rows already written, by setup (each setup's rows in job order); empty without a file. */
    public Map<Integer, List<JobRow>> read() {
        Map<Integer, Map<String, JobRow>> by = new TreeMap<>();
        if (!Files.exists(file)) {
            return Map.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines) {
            JobRow r = parse(line);
            if (r != null) {
                by.computeIfAbsent(r.setup(), k -> new LinkedHashMap<>()).put(r.job().id(), r);
            }
        }
        Map<Integer, List<JobRow>> out = new TreeMap<>();
        by.forEach((s, rows) -> out.put(s, List.copyOf(rows.values())));
        return out;
    }

    /** One setup's rows, created with the header if new. */
    public void append(List<JobRow> rows) {
        StringBuilder b = new StringBuilder();
        try {
            if (!Files.exists(file) || Files.size(file) == 0) {
                b.append(HEADER).append('\n');
            }
            rows.forEach(r -> b.append(format(r)).append('\n'));
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String format(JobRow r) {
        SetupJob j = r.job();
        return String.format(Locale.ROOT, "%d,%s,%s,%s,%d,%s,%s,%s,%s,%s", r.setup(), j.id(), j.workload(),
                factor(j.factor()), j.instances(), j.hostList(), seconds(r.baseline()), seconds(r.saba()),
                r.complete() ? String.format(Locale.ROOT, "%.4f", r.speedup()) : "", clean(r.note()));
    }

    /** A row, or null for the header, a blank or a torn line. */
    static JobRow parse(String line) {
        String[] f = line.split(",", -1);
        if (f.length != 10 || line.startsWith("setup,")) {
            return null;
        }
        try {
            List<Integer> hosts = new ArrayList<>();
            for (String h : f[5].split(";")) {
                hosts.add(Integer.parseInt(h.substring(1)));
            }
            SetupJob job = new SetupJob(f[1], f[2], Double.parseDouble(f[3]), hosts);
            if (job.instances() != Integer.parseInt(f[4])) {
                return null;
            }
            return new JobRow(Integer.parseInt(f[0]), job, outcome(f[6]), outcome(f[7]), f[9]);
        } catch (RuntimeException e) {
            return null; // torn write: the setup counts as not done and is run again
        }
    }

    private static RunOutcome outcome(String field) {
        return field.equals(FAILED) ? RunOutcome.failed("see note") : RunOutcome.ok(Double.parseDouble(field));
    }

    private static String seconds(RunOutcome o) {
        return o.ok() ? String.format(Locale.ROOT, "%.3f", o.seconds()) : FAILED;
    }

    /** 1, 2, 0.5: the factor as the drivers are given it. */
    static String factor(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }

    /** Notes are free text in the last column: no commas or line breaks. */
    private static String clean(String note) {
        return note == null ? "" : note.replace(',', ';').replaceAll("[\\r\\n]+", " ").strip();
    }
}
