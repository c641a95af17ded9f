package io.saba.harness.realspark;

import io.saba.harness.csv.AppendOnlyCsv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * jobs.csv of a real-Spark campaign (an {@link AppendOnlyCsv}): one row per job, appended (and forced to disk) one
 * setup at a time, so an interrupted campaign keeps every finished setup. A failed run is written as {@code failed} with its reason in
 * the note. A torn line is dropped on reading; if a setup appears twice (rerun after a torn write), its last
 * copy wins.
 */
public final class JobsCsv {
    public static final String HEADER = "setup,job,workload,factor,instances,hosts,baseline_s,saba_s,speedup,note";
    static final String FAILED = "failed";

    private final AppendOnlyCsv csv;

    public JobsCsv(Path file) {
        this.csv = new AppendOnlyCsv(file, List.of(HEADER.split(",")));
    }

    public Path file() {
        return csv.file();
    }

    /** Rows already written, by setup (each setup's rows in job order); empty without a file. */
    public Map<Integer, List<JobRow>> read() {
        Map<Integer, Map<String, JobRow>> by = new TreeMap<>();
        for (List<String> values : csv.rows()) {
            JobRow r = parse(values);
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
        csv.append(rows.stream().map(JobsCsv::values).toList());
    }

    static List<String> values(JobRow r) {
        SetupJob j = r.job();
        return List.of(Integer.toString(r.setup()), j.id(), j.workload(), factor(j.factor()),
                Integer.toString(j.instances()), j.hostList(), seconds(r.baseline()), seconds(r.saba()),
                r.complete() ? String.format(Locale.ROOT, "%.4f", r.speedup()) : "", clean(r.note()));
    }

    /** A row, or null for one that does not parse (a torn write). */
    static JobRow parse(List<String> f) {
        try {
            List<Integer> hosts = new ArrayList<>();
            for (String h : f.get(5).split(";")) {
                hosts.add(Integer.parseInt(h.substring(1)));
            }
            SetupJob job = new SetupJob(f.get(1), f.get(2), Double.parseDouble(f.get(3)), hosts);
            if (job.instances() != Integer.parseInt(f.get(4))) {
                return null;
            }
            return new JobRow(Integer.parseInt(f.get(0)), job, outcome(f.get(6)), outcome(f.get(7)), f.get(9));
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

    /** Notes are free text in the last column, quoted when they hold a comma; a line break becomes a space. */
    private static String clean(String note) {
        return note == null ? "" : note.replaceAll("[\\r\\n]+", " ").strip();
    }
}
