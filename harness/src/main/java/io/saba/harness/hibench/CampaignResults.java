package io.saba.harness.hibench;

import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.Speedups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Joins a campaign plan with the HiBench reports its runs wrote ({@code REPORTS/baseline/JOB.report} and
 * {@code REPORTS/saba/JOB.report}, the last run line of each) into per-job speedups, then the per-workload
 * geometric means and the per-setup distribution the simulator's campaign prints. A job missing either report
 * is listed as missing, never guessed.
 */
public final class CampaignResults {
    private CampaignResults() {
    }

    /** The outcomes, and the jobs that lacked a report (with why). */
    public record Joined(List<JobOutcome> outcomes, List<String> missing) {
    }

    public static Joined join(List<CampaignPlan.Row> plan, Path reports) throws IOException {
        List<JobOutcome> out = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (CampaignPlan.Row r : plan) {
            Double base = seconds(reports.resolve("baseline").resolve(r.job() + ".report"), r, missing);
            Double saba = seconds(reports.resolve("saba").resolve(r.job() + ".report"), r, missing);
            if (base != null && saba != null) {
                out.add(new JobOutcome(r.setup(), r.job(), r.workload(), r.datasetScale(), r.hosts().size(), base,
                        saba));
            }
        }
        return new Joined(out, missing);
    }

    private static Double seconds(Path report, CampaignPlan.Row r, List<String> missing) throws IOException {
        if (!Files.exists(report)) {
            missing.add(r.job() + ": no " + report);
            return null;
        }
        List<HibenchReportReader.Line> lines = HibenchReportReader.parse(Files.readString(report), report.toString());
        if (lines.isEmpty()) {
            missing.add(r.job() + ": " + report + " has no run line (the run failed?)");
            return null;
        }
        HibenchReportReader.Line last = lines.get(lines.size() - 1);
        if (!last.workload().equals(r.workload())) {
            throw new IllegalArgumentException(report + ": the plan says " + r.workload() + ", the report ran "
                    + last.type());
        }
        return last.seconds();
    }

    /** The per-workload table and the per-setup CDF, as text. */
    public static String render(Joined j) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%d jobs with both runs, %d missing%n", j.outcomes().size(),
                j.missing().size()));
        j.missing().forEach(m -> b.append("  missing ").append(m).append('\n'));
        b.append("workload        jobs   speedup (geomean, baseline time / Saba time)\n");
        Map<String, Double> per = Speedups.perWorkload(j.outcomes());
        per.forEach((w, s) -> b.append(String.format(Locale.ROOT, "%-14s %5d   %.3fx%n", w,
                j.outcomes().stream().filter(o -> o.workload().equals(w)).count(), s)));
        b.append(String.format(Locale.ROOT, "all jobs              %.3fx%n", Speedups.allJobs(j.outcomes())));
        List<Double> setups = Speedups.perSetup(j.outcomes());
        if (!setups.isEmpty()) {
            b.append("per-setup speedup CDF: ");
            for (double q : new double[] {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1}) {
                int i = (int) Math.min(setups.size() - 1, Math.floor(q * setups.size()));
                b.append(String.format(Locale.ROOT, "p%d %.3f  ", (int) (q * 100), setups.get(i)));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
