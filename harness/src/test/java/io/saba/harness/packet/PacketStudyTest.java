package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.ModelChoice;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.rperf.switchmodel.Policy;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PacketStudyTest {
    private static PacketStudyConfig tiny(int perHost, List<Long> seeds) {
        return new PacketStudyConfig(3, 4, 2, perHost, 4, 3e-6, seeds, 9, 8, 0, Policy.RR, 1,
                PacketStudyConfig.ALL_TIERS, ModelChoice.AUTO, true, 1);
    }

    @Test
    void placementFillsEveryHostsSlotsWithDistinctHostsPerJob() {
        PacketStudy study = new PacketStudy(tiny(2, List.of(7L)));
        List<JobSpec> jobs = study.draw(7);
        assertEquals(6, jobs.size());
        Map<String, Integer> load = new HashMap<>();
        for (JobSpec j : jobs) {
            assertEquals(4, new HashSet<>(j.hosts()).size());
            j.hosts().forEach(h -> load.merge(h, 1, Integer::sum));
        }
        assertEquals(12, load.size());
        assertTrue(load.values().stream().allMatch(n -> n == 2), load.toString());
        assertEquals(6, jobs.stream().map(j -> j.workload().name()).distinct().count(), "six of the 20 workloads");
        assertEquals(jobs, study.draw(7));
        assertNotEquals(jobs, study.draw(8));
    }

    @Test
    void aSmallStudyComparesEveryModeOnTheSamePlacementDeterministically() {
        PacketStudyConfig cfg = tiny(1, List.of(2L));
        PacketStudy.Result a = new PacketStudy(cfg).run(null);
        PacketStudy.Result b = new PacketStudy(cfg).run(null);
        List<String> names = a.schemes().stream().map(PacketStudy.Scheme::name).toList();
        assertEquals(List.of("packet vl-per-app", "packet saba", "packet saba-eq2", PacketStudy.SABA_EQUAL,
                PacketStudy.ALONE, "fluid ideal max-min (per application)", "fluid saba", PacketStudy.FLUID_ALONE),
                names);
        for (int i = 0; i < a.schemes().size(); i++) {
            assertEquals(a.schemes().get(i).perSeed(), b.schemes().get(i).perSeed(), names.get(i));
            assertEquals(1, a.schemes().get(i).perSeed().size());
        }
        assertEquals(a.packetOverFluid(), b.packetOverFluid());
        assertTrue(a.packets() > 0);
        String report = PacketStudy.report(a);
        assertTrue(report.contains("packet saba") && report.contains("median")
                && report.contains("Saba's plan part by part"), report);
        assertEquals(1 + 3 * 8, PacketStudy.csv(a).lines().count());
    }

    /** A paired row divides the two schemes' own times job by job: B's speedup over A, not over the baseline. */
    @Test
    void aPairedRowSetsTwoSchemesOwnTimesSideBySide() {
        PacketStudy.Scheme a = new PacketStudy.Scheme(PacketStudy.VL_PER_APP, PacketStudy.SHARED, Map.of(1L, List.of(
                new JobOutcome(1, "j0", "w", 1, 4, 10, 5), new JobOutcome(1, "j1", "w", 1, 4, 10, 8))));
        PacketStudy.Scheme b = new PacketStudy.Scheme(PacketStudy.SABA, PacketStudy.SHARED, Map.of(1L, List.of(
                new JobOutcome(1, "j0", "w", 1, 4, 10, 4), new JobOutcome(1, "j1", "w", 1, 4, 10, 10))));
        PacketStudy.Scheme p = PacketStudy.paired(a, b);
        assertEquals(PacketStudy.SABA, p.name());
        assertEquals(PacketStudy.VL_PER_APP, p.baseline());
        assertEquals(Math.sqrt(5.0 / 4 * (8.0 / 10)), p.perSeed().get(0), 1e-12);
    }

    @Test
    void coalescedAcksReachTheModelAndTheDescriptionAndFewerThanOnePacketPerAckIsRefused() {
        PacketStudyConfig perPacket = tiny(1, List.of(2L));
        PacketStudyConfig coalesced = new PacketStudyConfig(3, 4, 2, 1, 4, 3e-6, List.of(2L), 9, 8, 0, Policy.RR, 256,
                PacketStudyConfig.ALL_TIERS, ModelChoice.AUTO, true, 1);
        assertEquals(1, perPacket.params().ackEvery());
        assertEquals(256, coalesced.params().ackEvery());
        assertEquals(256, coalesced.withSeeds(List.of(3L)).params().ackEvery());
        assertFalse(perPacket.describe().contains("ACK"), "an ACK per packet describes the study as before");
        assertTrue(coalesced.describe().contains("an ACK asked every 256 packets"), coalesced.describe());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PacketStudyConfig(3, 4,
                2, 1, 4, 3e-6, List.of(2L), 9, 8, 0, Policy.RR, 0, PacketStudyConfig.ALL_TIERS, ModelChoice.AUTO, true, 1));
        assertEquals("an ACK every 0 packets: it must be 1 or more", e.getMessage());
    }
}
