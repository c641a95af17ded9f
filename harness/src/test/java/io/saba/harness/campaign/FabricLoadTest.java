package io.saba.harness.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-checked: jobs A (h1, h2) and B (h3, h2) each send LINE bytes per flow, one flow each way. They share h2's
 * egress and the switch's port toward h2, where each flow gets LINE/2, so both end at 2 s. Those two ports are busy
 * and saturated the whole run with 2 applications; the other four carry one flow at LINE/2: 50 %, never saturated.
 */
class FabricLoadTest {
    private static final double LINE = 7e9;

    @Test
    void twoJobsSharingOneHostsLinksLoadThemFullyAndTheRestByHalf() {
        TopologyNetwork network = Networks.singleSwitch(3);
        WorkloadSpec w = new WorkloadSpec("w", 2, 0, 1.0, List.of(new StageSpec(1, 0, 4 * LINE, 0)));
        Simulation sim = new Simulation(network, List.of(new JobSpec("a", w, 1.0, List.of("h1", "h2")),
                new JobSpec("b", w, 1.0, List.of("h3", "h2"))), PerFlowMaxMinPolicy.FACTORY).tracePortLoads();
        assertEquals(2.0, sim.run().completionSeconds().get("a"), 1e-9);

        FabricLoad load = FabricLoad.of(network, sim.portLoads(), 2.0);
        assertEquals(List.of("host egress", "switch to host"), load.tiers().stream().map(FabricLoad.Tier::name).toList(),
                "one switch: no switch-to-switch port carried anything");
        for (FabricLoad.Tier t : load.tiers()) {
            assertEquals(3, t.ports(), t.name());
            assertEquals(1.0 / 3, t.sharedFraction(), 1e-12, t.name());
            assertEquals(1, t.appsMedian(), t.name());
            assertEquals(2, t.appsMax(), t.name());
            assertEquals(0.5, t.utilisationMedian(), 1e-9, t.name());
            assertEquals(1.0, t.utilisationMax(), 1e-9, t.name());
            assertEquals(0, t.saturatedMedian(), 1e-12, t.name());
            assertEquals(1.0, t.saturatedP90(), 1e-9, t.name());
            assertEquals(1.0 / 3, t.sharedAndSaturatedFraction(), 1e-12, t.name());
        }
        assertTrue(load.report().contains("host egress"), load.report());
    }
}
