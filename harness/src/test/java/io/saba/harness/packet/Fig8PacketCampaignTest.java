package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.ModelChoice;
import io.saba.harness.campaign.DrawnJob;
import io.saba.harness.campaign.SetupGenerator;
import io.saba.harness.campaign.SetupRules;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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
                Fig8Scheme.SABA_APPS));
        Fig8PacketCampaign.Result r = new Fig8PacketCampaign(cfg).run(System.err);
        assertEquals(16, r.jobs().jobs().size());
        for (Fig8PacketJobs.Job j : r.jobs().jobs()) {
            assertTrue(j.seconds().get(Fig8Scheme.SABA_APPS) > 0, j.toString());
        }
        String report = Fig8PacketReport.text(r, cfg);
        assertTrue(report.contains("Saba, a level per application over Saba (corun)"), report);
        assertEquals(Fig8Scheme.SABA_APPS, Fig8Scheme.parse("saba-apps"));
    }
}
