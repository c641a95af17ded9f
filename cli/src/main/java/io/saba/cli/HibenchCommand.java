package io.saba.cli;

import io.saba.harness.campaign.PaperFigures;
import io.saba.harness.campaign.Plots;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.campaign.Speedups;
import io.saba.harness.csv.CsvLine;
import io.saba.harness.hibench.CampaignPlan;
import io.saba.harness.hibench.CampaignResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code saba hibench plan|results}: the paper's campaign on a real cluster, driven by scripts/hibench/. */
@Command(name = "hibench", mixinStandardHelpOptions = true,
        description = "The paper's campaign on a real cluster: draw the setups (the simulator's rules and seed), "
                + "then turn the runs' HiBench reports into speedups.",
        subcommands = {HibenchCommand.Plan.class, HibenchCommand.Results.class})
final class HibenchCommand {
    @Command(name = "plan", mixinStandardHelpOptions = true,
            description = "Write the setups as CSV (setup,job,workload,dataset_scale,instances,hosts).")
    static final class Plan implements Callable<Integer> {
        @Option(names = "--hosts", required = true, description = "file with one worker host name per line")
        Path hosts;
        @Option(names = "--setups", defaultValue = "500")
        int setups;
        @Option(names = "--seed", defaultValue = "1")
        long seed;
        @Option(names = "--workloads", split = ",", defaultValue = "lr,rf,gbt,svm,pagerank,nweight,sql,wordcount,"
                + "sort,nutchindexing")
        List<String> workloads;
        @Option(names = "--profiled-nodes", defaultValue = "8", description = "nodes the table was profiled on; "
                + "instances are drawn from 0.5x to 4x of it, capped by the host count")
        int profiledNodes;
        @Option(names = "--jobs", defaultValue = "16", description = "jobs per setup (default ${DEFAULT-VALUE})")
        int jobs;
        @Option(names = "--max-jobs-per-server", defaultValue = "16")
        int maxJobsPerServer;
        @Option(names = "--out", required = true)
        Path out;

        @Override
        public Integer call() throws Exception {
            List<String> hs = new ArrayList<>();
            for (String l : Files.readAllLines(hosts)) {
                if (!l.isBlank() && !l.strip().startsWith("#")) {
                    hs.add(l.strip());
                }
            }
            if (hs.isEmpty()) {
                throw new IllegalArgumentException(hosts + ": no hosts");
            }
            SetupRules rules = CampaignPlan.rules(profiledNodes, hs.size(), jobs, maxJobsPerServer);
            var rows = CampaignPlan.plan(workloads, hs, rules, seed, setups);
            Files.writeString(out, CampaignPlan.toCsv(rows));
            System.out.printf("%d setups, %d jobs, instances %d-%d on %d hosts -> %s%n", setups, rows.size(),
                    rules.minInstances(), rules.maxInstances(), hs.size(), out);
            return 0;
        }
    }

    @Command(name = "results", mixinStandardHelpOptions = true,
            description = "Per-workload speedups and the per-setup CDF from REPORTS/{baseline,saba}/JOB.report.")
    static final class Results implements Callable<Integer> {
        @Option(names = "--plan", required = true)
        Path plan;
        @Option(names = "--reports", required = true, description = "folder with baseline/ and saba/ reports")
        Path reports;
        @Option(names = "--out", description = "folder for speedups.csv and PNG plots")
        Path out;

        @Override
        public Integer call() throws Exception {
            var rows = CampaignPlan.parse(Files.readString(plan), plan.toString());
            CampaignResults.Joined j = CampaignResults.join(rows, reports);
            System.out.print(CampaignResults.render(j));
            if (out != null && !j.outcomes().isEmpty()) {
                Files.createDirectories(out);
                StringBuilder csv = new StringBuilder(CsvLine.of("setup", "job", "workload", "dataset_scale",
                        "instances", "baseline_s", "saba_s", "speedup"));
                j.outcomes().forEach(o -> csv.append(CsvLine.of(Integer.toString(o.setup()), o.job(), o.workload(),
                        String.valueOf(o.datasetScale()), Integer.toString(o.instances()),
                        String.format(java.util.Locale.ROOT, "%.3f", o.baselineSeconds()),
                        String.format(java.util.Locale.ROOT, "%.3f", o.policySeconds()),
                        String.format(java.util.Locale.ROOT, "%.4f", o.speedup()))));
                Files.writeString(out.resolve("speedups.csv"), csv.toString());
                Map<String, Double> per = Speedups.perWorkload(j.outcomes());
                Plots.bars(out.resolve("speedup-per-workload.png"), "Speedup per workload (HiBench campaign)",
                        "speedup", new ArrayList<>(per.keySet()), Map.of("measured", new ArrayList<>(per.values())));
                Plots.cdf(out.resolve("speedup-cdf.png"), "Per-setup speedup", "speedup",
                        Speedups.perSetup(j.outcomes()), PaperFigures.fig8bReferences());
                System.out.println("wrote " + out.resolve("speedups.csv") + " and plots");
            }
            return j.missing().isEmpty() ? 0 : 1;
        }
    }
}
