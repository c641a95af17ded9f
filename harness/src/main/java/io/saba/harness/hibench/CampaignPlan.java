package io.saba.harness.hibench;

import io.saba.harness.campaign.DrawnJob;
import io.saba.harness.campaign.SetupGenerator;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.csv.CsvLine;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's campaign for a real cluster: setups drawn by the simulator's {@link SetupGenerator} and
 * {@link SetupRules} (same seed, same setups), written as CSV rows ({@link CsvLine}) that the campaign script
 * turns into spark-submit / HiBench runs. Instance counts follow the paper's rule relative to the profiled node count
 * (0.5x to 4x), capped by the cluster's size.
 */
public final class CampaignPlan {
    public static final String HEADER = "setup,job,workload,dataset_scale,instances,hosts";

    private CampaignPlan() {
    }

    /** One job of one setup. */
    public record Row(int setup, String job, String workload, double datasetScale, List<String> hosts) {
    }

    public static SetupRules rules(int profiledNodes, int clusterHosts, int jobsPerSetup, int maxJobsPerServer) {
        int min = Math.max(1, Math.min(clusterHosts, (int) Math.ceil(profiledNodes * 0.5)));
        int max = Math.max(min, Math.min(clusterHosts, profiledNodes * 4));
        return new SetupRules(jobsPerSetup, SetupRules.paper().datasetScales(), min, max, maxJobsPerServer);
    }

    public static List<Row> plan(List<String> workloads, List<String> hosts, SetupRules rules, long seed, int setups) {
        SetupGenerator<String> g = new SetupGenerator<>(workloads, hosts, rules, seed);
        List<Row> rows = new ArrayList<>();
        for (int s = 0; s < setups; s++) {
            for (DrawnJob<String> j : g.setup(s)) {
                rows.add(new Row(s, j.id(), j.workload(), j.datasetScale(), j.hosts()));
            }
        }
        return rows;
    }

    public static String toCsv(List<Row> rows) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (Row r : rows) {
            b.append(CsvLine.of(Integer.toString(r.setup()), r.job(), r.workload(), String.valueOf(r.datasetScale()),
                    Integer.toString(r.hosts().size()), String.join(";", r.hosts())));
        }
        return b.toString();
    }

    public static List<Row> parse(String csv, String source) {
        List<Row> rows = new ArrayList<>();
        String[] lines = csv.split("\n");
        if (lines.length == 0 || !lines[0].strip().equals(HEADER)) {
            throw new IllegalArgumentException(source + ":1: expected the header " + HEADER);
        }
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            List<String> f = CsvLine.values(lines[i].strip());
            try {
                if (f == null) {
                    throw new IllegalArgumentException("not CSV");
                }
                List<String> hosts = List.of(f.get(5).split(";"));
                if (hosts.size() != Integer.parseInt(f.get(4))) {
                    throw new IllegalArgumentException("instances " + f.get(4) + " but " + hosts.size() + " hosts");
                }
                rows.add(new Row(Integer.parseInt(f.get(0)), f.get(1), f.get(2), Double.parseDouble(f.get(3)), hosts));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": not a plan row (" + HEADER + "): "
                        + e.getMessage());
            }
        }
        return rows;
    }
}
