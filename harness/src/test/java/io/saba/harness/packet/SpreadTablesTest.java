package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Saba's plan with a port's spare VLs spread over its crowded queues, on hand-computed cases. */
class SpreadTablesTest {
    private final WorkloadSpec w = PacketStudy.workloads(1e-5, 4, 56e9 / 8).get(0);

    private JobSpec job(String id) {
        return new JobSpec(id, w, 1.0, List.of("h0", "h1"));
    }

    @Test
    void sparesGoToTheQueueWithTheMostApplicationsPerVlAndSplitItsWeight() {
        List<JobSpec> jobs = List.of(job("a1"), job("a2"), job("a3"), job("b1"));
        SpreadTables t = SpreadTables.of(jobs, Map.of("a1", 1, "a2", 1, "a3", 1, "b1", 2), 16);
        assertEquals(Map.of("a1", 1, "a2", 2, "a3", 3, "b1", 4), t.slOf());
        PortAllocation plan = new PortAllocation(new PortId("h0", 0), Map.of(1, 1, 2, 2), new double[] {0, 0.6, 0.4},
                Map.of());
        // VLs 1-4: Saba uses 1 (level 1, three jobs) and 2 (level 2, one job); both spares go to queue 1
        SpreadTables.Port p = t.port(List.of("a1", "a2", "a3", "b1"), plan, 5);
        assertEquals(1, p.sl2vl()[1]);
        assertEquals(3, p.sl2vl()[2]);
        assertEquals(4, p.sl2vl()[3]);
        assertEquals(2, p.sl2vl()[4]);
        assertArrayEquals(new double[] {0, 0.2, 0.4, 0.2, 0.2}, p.weights(), 1e-12);
    }

    @Test
    void aPortWithoutSparesKeepsSabasTables() {
        SpreadTables t = SpreadTables.of(List.of(job("a1"), job("a2"), job("b1")), Map.of("a1", 1, "a2", 1, "b1", 2),
                16);
        PortAllocation plan = new PortAllocation(new PortId("h0", 0), Map.of(1, 1, 2, 2), new double[] {0, 0.7, 0.3},
                Map.of());
        SpreadTables.Port p = t.port(List.of("a1", "a2", "b1"), plan, 3);
        assertEquals(1, p.sl2vl()[t.slOf().get("a1")]);
        assertEquals(1, p.sl2vl()[t.slOf().get("a2")]);
        assertEquals(2, p.sl2vl()[t.slOf().get("b1")]);
        assertArrayEquals(new double[] {0, 0.7, 0.3}, p.weights(), 1e-12);
    }

    @Test
    void whenServiceLevelsRunShortJobsShareTheirLevelsFirstSl() {
        // 3 fresh SLs for 3 levels and 4 jobs: a2 shares a1's SL so that b1 and c1 still get one each
        SpreadTables t = SpreadTables.of(List.of(job("a1"), job("a2"), job("b1"), job("c1")),
                Map.of("a1", 1, "a2", 1, "b1", 2, "c1", 3), 4);
        assertEquals(Map.of("a1", 1, "a2", 1, "b1", 2, "c1", 3), t.slOf());
    }
}
