package io.saba.harness.campaign;

import io.saba.harness.csv.AppendOnlyCsv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The per-job results file of a campaign ({@code jobs.csv}), appended one setup at a time and forced to disk (an
 * {@link AppendOnlyCsv}) so an interrupted campaign loses at most the setups in flight. A setup counts as done only
 * when all its rows are present (a torn write is dropped on reading).
 */
public final class OutcomeCsv {
    public static final String HEADER =
            "setup,job,workload,dataset_scale,instances,baseline_s,policy_s,speedup";

    private final AppendOnlyCsv csv;

    public OutcomeCsv(Path file) {
        this.csv = new AppendOnlyCsv(file, List.of(HEADER.split(",")));
    }

    public Path file() {
        return csv.file();
    }

    /** Rows already written; empty if there is no file. */
    public List<JobOutcome> read() {
        List<JobOutcome> out = new ArrayList<>();
        for (List<String> f : csv.rows()) {
            try {
                out.add(new JobOutcome(Integer.parseInt(f.get(0)), f.get(1), f.get(2), Double.parseDouble(f.get(3)),
                        Integer.parseInt(f.get(4)), Double.parseDouble(f.get(5)), Double.parseDouble(f.get(6))));
            } catch (NumberFormatException e) {
                // torn write: ignore the row; its setup will be incomplete and rerun
            }
        }
        return out;
    }

    /** Appends one setup's rows (creating the file with its header first). */
    public void append(List<JobOutcome> rows) {
        List<List<String>> lines = new ArrayList<>();
        for (JobOutcome o : rows) {
            lines.add(List.of(Integer.toString(o.setup()), o.job(), o.workload(), String.valueOf(o.datasetScale()),
                    Integer.toString(o.instances()), fixed(o.baselineSeconds()), fixed(o.policySeconds()),
                    fixed(o.speedup())));
        }
        csv.append(lines);
    }

    private static String fixed(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }
}
