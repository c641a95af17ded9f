package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import io.saba.harness.sim.engine.Mechanisms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulator set beside a (hand-written) real-Spark campaign folder. */
class TestbedValidationTest {
    @TempDir
    Path dir;

    private static final ProfilingContext TWO_NODES = new ProfilingContext(2, "small", null, "testbed", "measured");

    /** Two workloads that send at the full link all the time, for 20 s and for 5 s, in different levels. */
    private static SensitivityTable table() {
        return SensitivityTable.empty()
                .with(new TableEntry("long", SensitivityModel.of(3, -2), 1, List.of(), TWO_NODES)
                        .withTraffic(TrafficRecord.constant(20, 1, 0.1)))
                .with(new TableEntry("short", SensitivityModel.of(2, -1), 1, List.of(), TWO_NODES)
                        .withTraffic(TrafficRecord.constant(5, 1, 0.1)));
    }

    private Map<Integer, List<JobRow>> measured() throws IOException {
        Files.writeString(dir.resolve("jobs.csv"), String.join("\n", JobsCsv.HEADER,
                "0,s0-j0,long,1,2,h2;h3,25.0,25.5,0.98,",
                "0,s0-j1,short,1,2,h2;h3,10.0,6.0,1.67,",
                "1,s1-j0,long,1,2,h2;h3,20.4,20.0,1.02,",
                "2,s2-j0,short,1,2,h2;h4,failed,5.0,,exit 1") + "\n");
        return new JobsCsv(dir.resolve("jobs.csv")).read();
    }

    @Test
    void eachMeasuredJobGetsTheSpeedupTheSimulatorPredictsForItsSetup() throws IOException {
        CampaignFingerprint campaign = new CampaignFingerprint(4, 20_000_000L,
                Allocation.CORUN, 0.9, "x");
        TestbedValidation.Result r = TestbedValidation.run(campaign, table(), measured(), Mechanisms.NONE);
        assertEquals(1, r.incompleteSetups(), "setup 2 has a failed run");
        assertEquals(3, r.rows().size());
        TestbedValidation.Row alone = r.rows().get(2);
        assertEquals(1.0, alone.simulated(), 1e-9, "a job alone gains nothing from weights");
        // Together on h2/h3: the baseline halves each host's egress between the two jobs, so short takes 10 s and
        // long 25 s. The co-run allocation puts short first (0.85 of C_Saba 0.9, long at the 0.05 floor; work-
        // conserving, so short runs at 0.85/0.9 of the link): short 5/0.944 = 5.29 s, long still 25 s.
        TestbedValidation.Row longJob = r.rows().get(0);
        TestbedValidation.Row shortJob = r.rows().get(1);
        assertEquals(10 / (5 / (0.85 / 0.9)), shortJob.simulated(), 1e-3);
        assertEquals(1.0, longJob.simulated(), 1e-3);
        assertEquals(25.0 / 25.5, longJob.measured(), 1e-12);
        assertEquals(25.0, longJob.measuredBaselineSeconds(), 1e-12);
        assertEquals(25.0, longJob.simulatedBaselineSeconds(), 1e-3);
        assertEquals(10.0, shortJob.simulatedBaselineSeconds(), 1e-3);
        double[] longs = r.perWorkload().get("long");
        assertEquals(Math.sqrt(longJob.measured() * alone.measured()), longs[0], 1e-12);
        // setup 1: measured 1.02x (Saba faster), simulated exactly 1: not the same order
        String report = TestbedValidation.report(r);
        assertTrue(report.contains("setups in the same order: 1 of 2"), report);
        assertTrue(report.contains("1 setups with a failed run left out"), report);
    }

    @Test
    void jobsThatOnlySendLoseNothingToASharedPoolOfCoresAndTheReportSaysWhichMachineWasSimulated()
            throws IOException {
        CampaignFingerprint campaign = new CampaignFingerprint(4, 20_000_000L, Allocation.CORUN, 0.9, "x");
        TestbedValidation.Result own = TestbedValidation.run(campaign, table(), measured(), Mechanisms.NONE);
        TestbedValidation.Result pooled = TestbedValidation.run(campaign, table(), measured(),
                Mechanisms.NONE.withSharedCores(1));
        assertEquals(own.rows(), pooled.rows(), "these records never compute, so no job waits for a core");
        assertTrue(TestbedValidation.report(pooled).contains("all hosts computing on one pool of 1 core,"));
        assertTrue(TestbedValidation.report(own).contains("each host computing on cores of its own"));
        assertThrows(IllegalArgumentException.class,
                () -> TestbedValidation.run(campaign, table(), measured(), Mechanisms.NONE.withSharedCores(-1)));
    }

    @Test
    void aWorkloadWithoutATrafficRecordCannotBeSimulated() throws IOException {
        SensitivityTable noTraffic = SensitivityTable.empty()
                .with(new TableEntry("long", SensitivityModel.of(3, -2), 1, List.of(), TWO_NODES));
        CampaignFingerprint campaign = new CampaignFingerprint(4, 20_000_000L,
                Allocation.EQ2, 0.9, "x");
        Map<Integer, List<JobRow>> rows = measured();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TestbedValidation.run(campaign, noTraffic, rows, Mechanisms.NONE));
        assertTrue(e.getMessage().contains("no traffic record for long"), e.getMessage());
    }

    @Test
    void withAFairFolderEachSetupsOrderOfBaselineFairAndSabaIsComparedMeasuredAgainstSimulated() throws IOException {
        CampaignFingerprint campaign = new CampaignFingerprint(4, 20_000_000L, Allocation.CORUN, 0.9, "x");
        Path fairCsv = Files.writeString(dir.resolve("fair.csv"), String.join("\n", JobsCsv.HEADER,
                "0,s0-j0,long,1,2,h2;h3,25.0,25.2,0.99,",
                "0,s0-j1,short,1,2,h2;h3,10.0,9.0,1.11,",
                "1,s1-j0,long,1,2,h2;h3,20.0,20.2,0.99,") + "\n");
        TestbedValidation.Result r = TestbedValidation.run(campaign, table(), measured(),
                new JobsCsv(fairCsv).read(), Mechanisms.NONE);
        assertTrue(r.withFair());
        // the two jobs open one flow each way, so equal weights per application split each port as per-flow max-min
        // does: fair simulates as the baseline; Saba gives short 0.85 of C_Saba as above
        TestbedValidation.Row shortJob = r.rows().get(1);
        assertEquals(1.0, shortJob.simulatedFair(), 1e-9);
        assertEquals(10.0 / 9.0, shortJob.measuredFair(), 1e-12);
        String report = TestbedValidation.report(r);
        // setup 0: measured saba 1.32 > fair 1.05 > baseline; simulated saba 1.45 > fair = baseline
        assertTrue(report.contains("saba > fair > baseline     saba > fair = baseline     no"), report);
        // setup 1: measured saba 1.02 > baseline > fair 0.99; simulated all equal
        assertTrue(report.contains("saba > baseline > fair     saba = fair = baseline     no"), report);
        assertTrue(report.contains("setups in the same order: 0 of 2"), report);
        // the two folders' baselines: the same in setup 0, 20.4 s against 20.0 in setup 1, so a setup strays
        // sqrt((0 + 0.02²) / 2) = 0.0141 from 1, and 0.028 (against the baseline) or 0.040 (between treatments) is
        // within the noise: setup 1's 1.02 / 0.99 are ties, as simulated; setup 0's fair 1.05 is not
        assertEquals(Math.sqrt(0.02 * 0.02 / 2), r.setupNoise(), 1e-9);
        assertTrue(report.contains("0      measured  saba > baseline, fair > baseline, saba > fair\n"
                + "       simulated saba > baseline, fair ~ baseline, saba > fair  differs"), report);
        assertTrue(report.contains("1      measured  saba ~ baseline, fair ~ baseline, saba ~ fair\n"
                + "       simulated saba ~ baseline, fair ~ baseline, saba ~ fair  same"), report);
        assertTrue(report.contains("setups in the same resolved order: 1 of 2"), report);
        assertTrue(TestbedValidation.csv(r).lines().findFirst().orElseThrow().endsWith(",measured_fair_speedup,"
                + "simulated_fair_speedup"));

        Path otherJobs = Files.writeString(dir.resolve("other.csv"), String.join("\n", JobsCsv.HEADER,
                "0,s0-j0,sort,1,2,h2;h3,25.0,25.2,0.99,", "0,s0-j1,short,1,2,h2;h3,10.0,9.0,1.11,") + "\n");
        Map<Integer, List<JobRow>> rows = measured();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TestbedValidation.run(
                campaign, table(), rows, new JobsCsv(otherJobs).read(), Mechanisms.NONE));
        assertTrue(e.getMessage().contains("not the same draws"), e.getMessage());
    }

    @Test
    void anOrderNamesTheTreatmentsFromFastestAndWritesTiesAsEqual() {
        assertEquals("fair > saba > baseline", TestbedValidation.order(1.1, 1.2));
        assertEquals("baseline > saba", TestbedValidation.order(0.9, Double.NaN));
        assertEquals("saba = baseline > fair", TestbedValidation.order(1.0, 0.8));
    }

    @Test
    void theFingerprintIsReadBackAndAnotherFolderIsRefused() throws IOException {
        Files.writeString(dir.resolve("campaign.fingerprint"), "real-spark testbed seed=3 hosts=5 link-rate=20000000 "
                + "scale=small allocation=corun c-saba=0.9 partitions=4 executor-memory=768m workloads=lr,sort "
                + "table-sha256=abc\n");
        CampaignFingerprint f = CampaignFingerprint.read(dir);
        assertEquals(new CampaignFingerprint(5, 20_000_000L,
                Allocation.CORUN, 0.9, "abc"), f);
        Files.writeString(dir.resolve("campaign.fingerprint"), "fig9\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CampaignFingerprint.read(dir));
        assertTrue(e.getMessage().contains("is not a real-Spark testbed campaign's"), e.getMessage());
    }
}
