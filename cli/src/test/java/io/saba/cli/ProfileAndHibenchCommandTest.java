package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** saba profile with a command and a rate hook (real processes), saba hibench plan/results, saba workload errors. */
class ProfileAndHibenchCommandTest extends InProcessCli {
    @TempDir
    Path dir;

    @Test
    void profileRunsACommandAtEveryLevelThroughTheHookAndWritesTableAndPlot() throws Exception {
        Path rate = dir.resolve("rate");
        Path table = dir.resolve("t.json");
        // slowdown 100/level: the hook records the level, the "workload" reports a time from it
        String workload = "echo SABA_RESULT seconds=$(awk '{print 100 / $1}' " + rate + ")";
        String[] args = {"profile", "--command", workload, "--name", "Shuffly", "--rate-hook",
                "echo {percent} > " + rate, "--fabric", "test NICs 10 Gb/s", "--levels", "25,50,100", "--repeats", "2",
                "--degree", "2", "--nodes", "4", "--out", table.toString(), "--dir", dir.resolve("p").toString()};
        assertEquals(0, run(args), err.toString());
        TableEntry e = SensitivityTableCodec.parse(Files.readString(table), "t.json").find("shuffly").orElseThrow();
        assertEquals(2, e.model().degree());
        assertEquals(6, e.samples().size());
        assertEquals(4.0, e.model().slowdown(0.25), 1e-6);
        assertEquals("test NICs 10 Gb/s", e.context().fabric());
        assertEquals(4, e.context().nodes());
        assertTrue(e.context().settings().contains("levels [25.0, 50.0, 100.0] % x 2 repetitions"),
                e.context().settings());
        assertEquals(2, e.context().r2ByDegree().size());
        assertTrue(Files.size(dir.resolve("p/shuffly.png")) > 1000);
        assertEquals(7, Files.readAllLines(dir.resolve("p/shuffly/runs.csv")).size());
        // the same command again resumes: nothing left to run, same table
        String before = Files.readString(table);
        assertEquals(0, run(args));
        assertEquals(before.replaceAll("\"date\" : \"[^\"]*\"", ""), Files.readString(table)
                .replaceAll("\"date\" : \"[^\"]*\"", ""));
        assertEquals(7, Files.readAllLines(dir.resolve("p/shuffly/runs.csv")).size());
    }

    @Test
    void profileAndWorkloadRefuseBadInputNamingIt() {
        assertEquals(2, run("profile", "--command", "true", "--rate-hook", "true", "--out", "x.json"));
        assertTrue(err.toString().contains("--command needs --name"), err.toString());
        assertEquals(2, run("profile", "--command", "true", "--name", "x", "--rate-hook", "true", "--levels", "5,50",
                "--out", "x.json"));
        assertTrue(err.toString().contains("must include 100"), err.toString());
        assertEquals(2, run("workload", "run", "kmeans"));
        assertTrue(err.toString().contains("unknown workload 'kmeans' (known: lr, rf, gbt"), err.toString());
        assertEquals(2, run("workload", "run", "sort", "--spark-home", dir.toString()));
        assertTrue(err.toString().contains("no Spark home with the workloads found"), err.toString());
    }

    @Test
    void corunRefusesBadInputInOneLineBeforeAnythingStarts() {
        // no testbed named nosuch is up: each fault is found before the testbed is even looked for
        String[] corun = {"profile", "--workload", "pagerank", "--testbed", "nosuch", "--method", "corun",
                "--competitor", "sort", "--out", dir.resolve("t.json").toString()};
        assertRefused("saba profile: --competitor: unknown workload 'kmeans' (known: lr, rf, gbt, svm, pagerank, "
                + "nweight, sql, wordcount, sort, nutchindexing)", with(corun, "--competitor", "kmeans"));
        assertRefused("saba profile: bandwidth level 150.0 is outside (0, 100]", with(corun, "--levels", "25,150,100"));
        assertRefused("saba profile: bandwidth level 0.0 is outside (0, 100]", with(corun, "--levels", "0,100"));
        assertRefused("saba profile: --method: unknown method 'paced' (expected cap or corun)",
                with(corun, "--method", "paced"));
        assertRefused("saba profile: --competitor-factor must be a positive number, got -1.0",
                with(corun, "--competitor-factor", "-1"));
        assertRefused("saba profile: --method corun needs --testbed: it sets weights on the testbed's ports and runs "
                + "the competitor there", "profile", "--workload", "pagerank", "--rate-hook", "true", "--method",
                "corun", "--competitor", "sort", "--out", "t.json");
        assertRefused("saba profile: --method corun needs --competitor NAME, a built-in workload that sends in bursts "
                + "(e.g. sort)", "profile", "--workload", "pagerank", "--testbed", "nosuch", "--method", "corun",
                "--out", "t.json");
        assertRefused("saba profile: --method corun profiles built-in workloads (--workload): both applications must "
                + "run on Saba's shuffle manager to be told apart on the ports", "profile", "--command", "true",
                "--name", "x", "--testbed", "nosuch", "--method", "corun", "--competitor", "sort", "--out", "t.json");
        assertRefused("saba profile: --competitor is for --method corun", "profile", "--workload", "pagerank",
                "--testbed", "nosuch", "--competitor", "sort", "--out", "t.json");
        assertTrue(!Files.exists(dir.resolve("t.json")), "nothing written");
    }

    /** Exit status 2 and exactly {@code line} on stderr: no stack trace, no second line. */
    private void assertRefused(String line, String... args) {
        err.getBuffer().setLength(0);
        assertEquals(2, run(args), err.toString());
        assertEquals(line, err.toString().strip());
    }

    /** {@code args} with {@code option} set to {@code value} (replacing it if present). */
    private static String[] with(String[] args, String option, String value) {
        java.util.List<String> out = new java.util.ArrayList<>(java.util.List.of(args));
        int i = out.indexOf(option);
        if (i >= 0) {
            out.set(i + 1, value);
        } else {
            out.addAll(java.util.List.of(option, value));
        }
        return out.toArray(String[]::new);
    }

    @Test
    void hibenchPlanAndResults() throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "# workers\nn1\nn2\nn3\nn4\n");
        Path plan = dir.resolve("plan.csv");
        assertEquals(0, run("hibench", "plan", "--hosts", hosts.toString(), "--setups", "2", "--jobs", "2",
                "--workloads", "sort,wordcount", "--profiled-nodes", "2", "--seed", "3", "--out", plan.toString()),
                err.toString());
        var rows = io.saba.harness.hibench.CampaignPlan.parse(Files.readString(plan), "plan");
        assertEquals(4, rows.size());
        String hdr = "Type Date Time Input_data_size Duration(s) Throughput(bytes/s) Throughput/node\n";
        for (var r : rows) {
            String type = r.workload().equals("sort") ? "ScalaSparkTerasort" : "ScalaSparkWordcount";
            Files.createDirectories(dir.resolve("rep/baseline"));
            Files.createDirectories(dir.resolve("rep/saba"));
            Files.writeString(dir.resolve("rep/baseline/" + r.job() + ".report"),
                    hdr + type + " 2026-01-01 10:00:00 100 30.0 3 1\n");
            Files.writeString(dir.resolve("rep/saba/" + r.job() + ".report"),
                    hdr + type + " 2026-01-01 11:00:00 100 20.0 5 1\n");
        }
        assertEquals(0, run("hibench", "results", "--plan", plan.toString(), "--reports", dir.resolve("rep").toString(),
                "--out", dir.resolve("res").toString()), err.toString());
        assertEquals(5, Files.readAllLines(dir.resolve("res/speedups.csv")).size());
        assertTrue(Files.readString(dir.resolve("res/speedups.csv")).contains(",30.000,20.000,1.5000"));
        assertTrue(Files.exists(dir.resolve("res/speedup-cdf.png")));
        Files.delete(dir.resolve("rep/saba/" + rows.get(0).job() + ".report"));
        assertEquals(1, run("hibench", "results", "--plan", plan.toString(), "--reports", dir.resolve("rep").toString()),
                "a missing report is reported, not skipped silently");
    }
}
