package io.saba.harness.packet;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.corun.CorunPredictor;
import io.saba.core.corun.CorunProfile;
import io.saba.core.stats.Stats;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.csv.AppendOnlyCsv;
import io.saba.harness.sim.policy.SabaPlan;
import io.saba.harness.sim.workload.JobSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What Saba's co-run predictor expects of its own weights, beside what the packet model measures: for every job, the
 * slowdown the predictor gives it under Saba's weights and under equal weights on Saba's levels ({@link
 * Fig8Scheme#SABA} and {@link Fig8Scheme#SABA_EQUAL}), and its share of the ports it crosses under each. Saba's
 * weights are chosen because the predictor says they beat equal ones; where the packet model says otherwise, this
 * shows for which jobs the predictor was wrong, and in which direction.
 *
 * <p>On a port, a job's weight is its queue's weight split evenly among the jobs in the queue there (a VL serves
 * its queue pairs in turn), and the predictor replays every job on the port from its start ({@link
 * CorunPredictor}). The predictor knows no job, only ports; a job's predicted slowdown is that of its slowest port
 * (its rounds wait for their last flow), and its share is its mean share over its ports.
 */
final class PredictorCheck {
    private static final List<String> HEADER = List.of("setup", "job", "predictedSaba", "predictedEqual",
            "shareSaba", "shareEqual");

    /** One job: its predicted slowdowns and mean shares under Saba's weights and under equal weights. */
    record Row(int setup, String job, double predictedSaba, double predictedEqual, double shareSaba,
               double shareEqual) {
    }

    private final AppendOnlyCsv file;

    /** {@code predictions.csv} in {@code dir}. */
    PredictorCheck(Path dir) {
        this.file = new AppendOnlyCsv(dir.resolve("predictions.csv"), HEADER);
    }

    /** The setups with a row for every one of their {@code jobsPerSetup} jobs. */
    Set<Integer> done(int jobsPerSetup) {
        Map<Integer, Set<String>> jobs = new HashMap<>();
        read().forEach(r -> jobs.computeIfAbsent(r.setup(), k -> new HashSet<>()).add(r.job()));
        Set<Integer> out = new HashSet<>();
        jobs.forEach((setup, js) -> {
            if (js.size() == jobsPerSetup) {
                out.add(setup);
            }
        });
        return out;
    }

    /** The rows written, the first of a (setup, job) kept. A row that does not parse names the file and fails. */
    List<Row> read() {
        Map<String, Row> out = new LinkedHashMap<>();
        for (List<String> v : file.rows()) {
            try {
                Row r = new Row(Integer.parseInt(v.get(0)), v.get(1), Double.parseDouble(v.get(2)),
                        Double.parseDouble(v.get(3)), Double.parseDouble(v.get(4)), Double.parseDouble(v.get(5)));
                out.putIfAbsent(r.setup() + "/" + r.job(), r);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file.file() + ": not a prediction row: " + v, e);
            }
        }
        return List.copyOf(out.values());
    }

    /** Predicts setup {@code setup}'s jobs under {@code plan} and appends their rows. */
    void append(int setup, List<JobSpec> jobs, Map<String, Set<PortId>> ports, SabaPlan plan,
                SensitivityTable table) {
        List<List<String>> values = new ArrayList<>();
        for (Row r : rows(setup, jobs, ports, plan, table)) {
            values.add(List.of(Integer.toString(r.setup()), r.job(), Double.toString(r.predictedSaba()),
                    Double.toString(r.predictedEqual()), Double.toString(r.shareSaba()),
                    Double.toString(r.shareEqual())));
        }
        file.append(values);
    }

    /** Every job's row, in the order of {@code jobs}. */
    static List<Row> rows(int setup, List<JobSpec> jobs, Map<String, Set<PortId>> ports, SabaPlan plan,
                          SensitivityTable table) {
        Map<String, double[]> acc = new HashMap<>(); // worst slowdown under each, share sums, ports
        for (Map.Entry<PortId, PortAllocation> e : new TreeMap<>(plan.ports()).entrySet()) {
            List<JobSpec> at = jobs.stream().filter(j -> ports.get(j.id()).contains(e.getKey())).toList();
            if (at.isEmpty()) {
                continue;
            }
            Map<Integer, Integer> inQueue = new HashMap<>();
            int[] queue = new int[at.size()];
            for (int i = 0; i < at.size(); i++) {
                queue[i] = e.getValue().queueOfLevel().get(plan.levelOfApp().get(at.get(i).id()));
                inQueue.merge(queue[i], 1, Integer::sum);
            }
            double[] saba = new double[at.size()];
            double[] equal = new double[at.size()];
            double sum = 0;
            for (int i = 0; i < at.size(); i++) {
                saba[i] = e.getValue().queueWeights()[queue[i]] / inQueue.get(queue[i]);
                equal[i] = 1.0 / inQueue.size() / inQueue.get(queue[i]);
                sum += saba[i];
            }
            List<CorunProfile> profiles = at.stream().map(j -> profile(table, j)).toList();
            double[] ds = CorunPredictor.slowdowns(profiles, saba);
            double[] de = CorunPredictor.slowdowns(profiles, equal);
            for (int i = 0; i < at.size(); i++) {
                double[] a = acc.computeIfAbsent(at.get(i).id(), k -> new double[5]);
                a[0] = Math.max(a[0], ds[i]);
                a[1] = Math.max(a[1], de[i]);
                a[2] += saba[i] / sum;
                a[3] += equal[i];
                a[4]++;
            }
        }
        List<Row> out = new ArrayList<>();
        for (JobSpec j : jobs) {
            double[] a = acc.get(j.id());
            if (a == null) {
                throw new IllegalStateException("the plan gave job " + j.id() + " no port");
            }
            out.add(new Row(setup, j.id(), a[0], a[1], a[2] / a[4], a[3] / a[4]));
        }
        return out;
    }

    private static CorunProfile profile(SensitivityTable table, JobSpec j) {
        CorunProfile p = table.find(j.workload().name()).map(e -> e.corunProfile()).orElse(null);
        if (p == null) {
            throw new IllegalStateException("no traffic record for " + j.workload().name() + " in the table");
        }
        return p;
    }

    /**
     * The report's section: per workload, for jobs whose share Saba raised or cut, and for all, the predicted and
     * measured speed of Saba's weights over equal ones (geometric means over jobs); empty without predictions for
     * jobs that ran under both.
     */
    static String text(List<Row> rows, Fig8PacketJobs jobs) {
        Map<String, Row> byJob = new HashMap<>();
        rows.forEach(r -> byJob.put(r.setup() + "/" + r.job(), r));
        Map<String, List<double[]>> byWorkload = new TreeMap<>();
        List<double[]> raised = new ArrayList<>();
        List<double[]> cut = new ArrayList<>();
        List<double[]> all = new ArrayList<>();
        for (Fig8PacketJobs.Job j : jobs.jobs()) {
            Row r = byJob.get(j.setup() + "/" + j.id());
            Double saba = j.seconds().get(Fig8Scheme.SABA);
            Double equal = j.seconds().get(Fig8Scheme.SABA_EQUAL);
            if (r == null || saba == null || equal == null) {
                continue;
            }
            double[] speed = {r.predictedEqual() / r.predictedSaba(), equal / saba};
            byWorkload.computeIfAbsent(j.workload(), k -> new ArrayList<>()).add(speed);
            (r.shareSaba() > r.shareEqual() ? raised : cut).add(speed);
            all.add(speed);
        }
        if (all.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nthe co-run predictor beside the packet "
                + "model: Saba's weights over equal weights on its levels, speed per job (%d jobs with predictions)%n"
                + "%-26s %10s %10s %6s%n", all.size(), "", "predicted", "measured", "jobs"));
        byWorkload.forEach((w, v) -> line(s, "workload " + w, v));
        line(s, "share cut by Saba", cut);
        line(s, "share raised by Saba", raised);
        line(s, "all jobs", all);
        return s + slowdownText(byJob, jobs);
    }

    /**
     * When every job also ran alone: its slowdown over that, predicted and measured, under Saba's weights and under
     * equal weights, by dataset scale; and at the profiled dataset (1x, the only size the table's records know), by
     * whether Saba cut or raised the job's share and by its instance count (the ports it waits on every round).
     */
    private static String slowdownText(Map<String, Row> byJob, Fig8PacketJobs jobs) {
        Map<String, List<double[]>> groups = new LinkedHashMap<>();
        Map<Double, List<double[]>> byScale = new TreeMap<>();
        Map<String, List<double[]>> atOne = new TreeMap<>();
        List<double[]> all = new ArrayList<>();
        for (Fig8PacketJobs.Job j : jobs.jobs()) {
            Row r = byJob.get(j.setup() + "/" + j.id());
            Double alone = j.seconds().get(Fig8Scheme.ALONE);
            Double saba = j.seconds().get(Fig8Scheme.SABA);
            Double equal = j.seconds().get(Fig8Scheme.SABA_EQUAL);
            if (r == null || alone == null || saba == null || equal == null) {
                continue;
            }
            double[] v = {r.predictedSaba(), saba / alone, r.predictedEqual(), equal / alone};
            byScale.computeIfAbsent(j.datasetScale(), k -> new ArrayList<>()).add(v);
            if (j.datasetScale() == 1) {
                int low = (j.instances() - 1) / 8 * 8 + 1;
                String key = String.format(Locale.ROOT, "1x, share %s, %2d-%2d instances",
                        r.shareSaba() > r.shareEqual() ? "raised" : "cut", low, low + 7);
                atOne.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
            }
            all.add(v);
        }
        if (all.isEmpty()) {
            return "";
        }
        byScale.forEach((scale, v) -> groups.put(String.format(Locale.ROOT, "dataset %sx",
                scale == Math.rint(scale) ? Long.toString(Math.round(scale)) : Double.toString(scale)), v));
        groups.putAll(atOne);
        groups.put("all jobs", all);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%nslowdown over the job alone, predicted "
                + "and measured (geometric means over jobs)%n%-36s %10s %10s %11s %11s %6s%n", "", "Saba pred",
                "Saba meas", "equal pred", "equal meas", "jobs"));
        groups.forEach((k, v) -> {
            s.append(String.format(Locale.ROOT, "%-36s", k));
            for (int i = 0; i < 4; i++) {
                int c = i;
                s.append(String.format(Locale.ROOT, i < 2 ? " %10.3f" : " %11.3f",
                        Stats.geomean(v.stream().map(x -> x[c]).toList())));
            }
            s.append(String.format(Locale.ROOT, " %6d%n", v.size()));
        });
        return s.toString();
    }

    private static void line(StringBuilder s, String label, List<double[]> speeds) {
        if (!speeds.isEmpty()) {
            s.append(String.format(Locale.ROOT, "%-26s %10.3f %10.3f %6d%n", label,
                    Stats.geomean(speeds.stream().map(x -> x[0]).toList()),
                    Stats.geomean(speeds.stream().map(x -> x[1]).toList()), speeds.size()));
        }
    }
}
