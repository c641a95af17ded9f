package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.corun.CorunPredictor;
import io.saba.core.corun.CorunProfile;
import io.saba.core.model.ModelChoice;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import io.saba.harness.campaign.DrawnJob;
import io.saba.harness.campaign.SetupGenerator;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.SabaPlan;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fig8-packet draws fig8's setups, runs each scheme once, and resumes what a folder lacks. */
class Fig8PacketCampaignTest {
    @TempDir
    Path dir;

    private Fig8PacketCampaign.Config config(int setups, EnumSet<Fig8Scheme> schemes) {
        return new Fig8PacketCampaign.Config(setups, 7, 1e-6, ModelChoice.AUTO, 8, 2, schemes, "default", dir);
    }

    @Test
    void seedSDrawsTheJobsOfFig8WithSeedS() {
        var network = Networks.testbed();
        List<WorkloadSpec> fluid = new ArrayList<>(HibenchCatalog.specs(network.hostLinkRate()).values());
        SetupGenerator<WorkloadSpec> fig8 = new SetupGenerator<>(fluid, network.hosts(), SetupRules.paper(), 7);
        Fig8PacketCampaign packet = new Fig8PacketCampaign(config(1, EnumSet.of(Fig8Scheme.SHARED)));
        assertEquals(Fig8PacketCampaign.HOSTS, network.hosts().size());
        for (int i : new int[] {0, 1, 17, 499}) {
            List<DrawnJob<WorkloadSpec>> a = fig8.setup(i);
            List<JobSpec> b = packet.setup(i);
            assertEquals(a.size(), b.size());
            for (int j = 0; j < a.size(); j++) {
                assertEquals(a.get(j).id(), b.get(j).id());
                assertEquals(a.get(j).workload().name(), b.get(j).workload().name());
                assertEquals(a.get(j).datasetScale(), b.get(j).datasetScale());
                List<Integer> fluidHosts = a.get(j).hosts().stream().map(network.hosts()::indexOf).toList();
                List<Integer> packetHosts = b.get(j).hosts().stream()
                        .map(h -> Integer.parseInt(h.substring(1))).toList();
                assertEquals(fluidHosts, packetHosts, "setup " + i + " job " + j);
            }
        }
    }

    @Test
    void aRerunAddsOnlyTheSchemesTheFolderLacksAndDropsATornLine() throws Exception {
        Fig8PacketCampaign.Result first = new Fig8PacketCampaign(config(1, EnumSet.of(Fig8Scheme.SHARED,
                Fig8Scheme.CONTROL))).run(System.err);
        assertEquals(1, first.jobs().setups());
        assertEquals(16, first.jobs().jobs().size());
        assertTrue(first.packets() > 0);
        Path jobs = dir.resolve("jobs.csv");
        List<String> before = Files.readAllLines(jobs);
        assertEquals(1 + 2 * 16, before.size(), "a header and a row per job and scheme");
        Files.writeString(jobs, "0,SABA,s0-j0,lr,0.1,4,0.00", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        Fig8PacketCampaign.Result second = new Fig8PacketCampaign(config(1, EnumSet.of(Fig8Scheme.SHARED,
                Fig8Scheme.CONTROL, Fig8Scheme.SABA))).run(System.err);
        assertEquals(1, second.ranNow());
        List<String> after = Files.readAllLines(jobs);
        assertEquals(before, after.subList(0, before.size()), "what was there stays");
        assertEquals(1 + 3 * 16, after.size(), "the torn line is gone, saba's rows are added");
        for (Fig8PacketJobs.Job j : second.jobs().jobs()) {
            assertEquals(first.jobs().jobs().stream().filter(x -> x.id().equals(j.id())).findFirst().orElseThrow()
                    .seconds().get(Fig8Scheme.SHARED), j.seconds().get(Fig8Scheme.SHARED));
            assertTrue(j.seconds().get(Fig8Scheme.SABA) > 0);
        }

        Fig8PacketCampaign.Result third = new Fig8PacketCampaign(config(1, EnumSet.of(Fig8Scheme.SHARED,
                Fig8Scheme.SABA))).run(System.err);
        assertEquals(0, third.ranNow(), "nothing left to run");
        assertEquals(0, third.packets());
    }

    @Test
    void theLevelPerApplicationSchemeRunsBesideSaba() {
        Fig8PacketCampaign.Config cfg = config(1, EnumSet.of(Fig8Scheme.SHARED, Fig8Scheme.SABA,
                Fig8Scheme.SABA_APPS, Fig8Scheme.SABA_APPS_EQUAL));
        Fig8PacketCampaign.Result r = new Fig8PacketCampaign(cfg).run(System.err);
        assertEquals(16, r.jobs().jobs().size());
        boolean weightsMatter = false;
        for (Fig8PacketJobs.Job j : r.jobs().jobs()) {
            assertTrue(j.seconds().get(Fig8Scheme.SABA_APPS) > 0, j.toString());
            assertTrue(j.seconds().get(Fig8Scheme.SABA_APPS_EQUAL) > 0, j.toString());
            weightsMatter |= !j.seconds().get(Fig8Scheme.SABA_APPS).equals(j.seconds().get(Fig8Scheme.SABA_APPS_EQUAL));
        }
        assertTrue(weightsMatter, "equal weights ran the same tables as Saba's");
        String report = Fig8PacketReport.text(r, cfg);
        assertTrue(report.contains("Saba, a level per application over Saba (corun)"), report);
        assertTrue(report.contains("Saba, a level per application over Saba, a level per application, equal weights"),
                report);
        assertEquals(Fig8Scheme.SABA_APPS, Fig8Scheme.parse("saba-apps"));
        assertEquals(Fig8Scheme.SABA_APPS_EQUAL, Fig8Scheme.parse("saba-apps-equal"));
    }

    @Test
    void theSizedOracleTellsThePlannerEachJobsScaleWithItsRecordStretched() {
        Fig8PacketCampaign.Config cfg = config(1, EnumSet.of(Fig8Scheme.SHARED, Fig8Scheme.SABA,
                Fig8Scheme.SABA_SIZED));
        Fig8PacketCampaign.Result r = new Fig8PacketCampaign(cfg).run(System.err);
        SensitivityTable sized = Fig8PacketCampaign.sized(r.table(), new double[] {0.1, 10});
        for (TableEntry e : r.table().entries().values()) {
            for (double s : new double[] {0.1, 10}) {
                TableEntry x = sized.find(e.workload() + "@" + s).orElseThrow();
                assertEquals(e.fit(), x.fit(), "the same curve");
                assertEquals(e.traffic().intervalSeconds() * s, x.traffic().intervalSeconds());
                assertArrayEquals(e.traffic().utilisation(), x.traffic().utilisation());
            }
        }
        for (JobSpec j : new Fig8PacketCampaign(cfg).setup(0)) {
            assertTrue(sized.find(Fig8PacketCampaign.sizedName(j)).isEmpty() == (j.datasetScale() == 1),
                    "every job but a 1x one has its entry in a table of 0.1x and 10x: " + j);
        }
        for (Fig8PacketJobs.Job j : r.jobs().jobs()) {
            assertTrue(j.seconds().get(Fig8Scheme.SABA_SIZED) > 0, j.toString());
        }
        assertTrue(Fig8PacketReport.text(r, cfg).contains("Saba, predictor told job sizes over Saba (corun)"));
        assertEquals(Fig8Scheme.SABA_SIZED, Fig8Scheme.parse("saba-sized"));
        assertFalse(Fig8Scheme.SABA_SIZED.byDefault(), "an oracle runs only when named");
    }

    @Test
    void thePredictorCheckSplitsAQueuesWeightAmongItsJobsAndIsResumed() {
        Fig8PacketCampaign.Config cfg = config(1, EnumSet.of(Fig8Scheme.SHARED, Fig8Scheme.SABA,
                Fig8Scheme.SABA_EQUAL, Fig8Scheme.ALONE));
        Fig8PacketCampaign.Result r = new Fig8PacketCampaign(cfg).run(System.err);
        assertEquals(16, r.predictions().size());
        for (PredictorCheck.Row p : r.predictions()) {
            assertTrue(p.predictedSaba() >= 1 && p.predictedEqual() >= 1, p.toString());
            assertTrue(p.shareSaba() > 0 && p.shareSaba() <= 1 && p.shareEqual() > 0 && p.shareEqual() <= 1,
                    p.toString());
        }
        String report = Fig8PacketReport.text(r, cfg);
        assertTrue(report.contains("the co-run predictor beside the packet model"));
        // the slowdowns' last row, by hand: geometric means over the 16 jobs of prediction and time over alone
        double[] logs = new double[4];
        for (PredictorCheck.Row p : r.predictions()) {
            Map<Fig8Scheme, Double> t = r.jobs().jobs().stream().filter(j -> j.id().equals(p.job())).findFirst()
                    .orElseThrow().seconds();
            double[] v = {p.predictedSaba(), t.get(Fig8Scheme.SABA) / t.get(Fig8Scheme.ALONE), p.predictedEqual(),
                t.get(Fig8Scheme.SABA_EQUAL) / t.get(Fig8Scheme.ALONE)};
            for (int i = 0; i < 4; i++) {
                logs[i] += Math.log(v[i]) / 16;
            }
        }
        String allRow = String.format(Locale.ROOT, "%-36s %10.3f %10.3f %11.3f %11.3f %6d", "all jobs",
                Math.exp(logs[0]), Math.exp(logs[1]), Math.exp(logs[2]), Math.exp(logs[3]), 16);
        assertTrue(report.contains("slowdown over the job alone") && report.contains(allRow), report);
        assertEquals(0, new Fig8PacketCampaign(cfg).run(System.err).ranNow(), "the predictions are kept too");

        // by hand: jobs a and b share queue 1 (weight 0.6), c has queue 2 (0.4), all on one port
        List<JobSpec> jobs = new Fig8PacketCampaign(cfg).setup(0).subList(0, 3);
        PortId port = new PortId("h0", 0);
        SabaPlan plan = new SabaPlan(Map.of(jobs.get(0).id(), 1, jobs.get(1).id(), 1, jobs.get(2).id(), 2),
                Map.of(port, new PortAllocation(port, Map.of(1, 1, 2, 2), new double[] {0, 0.6, 0.4}, Map.of())));
        Map<String, Set<PortId>> ports = new HashMap<>();
        jobs.forEach(j -> ports.put(j.id(), Set.of(port)));
        List<PredictorCheck.Row> rows = PredictorCheck.rows(3, jobs, ports, plan, r.table());
        List<CorunProfile> profiles = jobs.stream()
                .map(j -> r.table().find(j.workload().name()).orElseThrow().corunProfile()).toList();
        double[] saba = CorunPredictor.slowdowns(profiles, new double[] {0.3, 0.3, 0.4});
        double[] equal = CorunPredictor.slowdowns(profiles, new double[] {0.25, 0.25, 0.5});
        double[] shareSaba = {0.3, 0.3, 0.4};
        double[] shareEqual = {0.25, 0.25, 0.5};
        for (int i = 0; i < 3; i++) {
            PredictorCheck.Row row = rows.get(i);
            assertEquals(jobs.get(i).id(), row.job());
            assertEquals(saba[i], row.predictedSaba(), 1e-12);
            assertEquals(equal[i], row.predictedEqual(), 1e-12);
            assertEquals(shareSaba[i], row.shareSaba(), 1e-12);
            assertEquals(shareEqual[i], row.shareEqual(), 1e-12);
        }
    }
}
