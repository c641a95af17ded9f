package io.saba.harness.sim.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.topology.Topologies;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A workload calibrated from a traffic record, checked by hand. */
class RecordedWorkloadTest {
    /** 20 Mbit/s in bytes per second. */
    private static final double LINE = 20e6 / 8;
    /** Idle 1 s, two seconds at half the link, idle 2 s: the burst rate is 0.5, every byte waited on. */
    private static final CorunProfile HALF_RATE_BURST =
            CorunProfile.of(new TrafficRecord(1, new double[]{0, 0.5, 0.5, 0, 0}));

    @Test
    void eachSendingIntervalIsAStageAfterTheIdleTimeBeforeIt() {
        WorkloadSpec w = RecordedWorkload.of("burst", HALF_RATE_BURST, 2, LINE);
        // on 2 instances one host's egress is (P − 1)/P² = 1/4 of the job's all-to-all bytes
        double bytes = 0.5 * LINE * 4;
        assertEquals(List.of(new StageSpec(1, 1.0, bytes, 0), new StageSpec(1, 0.0, bytes, 0),
                new StageSpec(1, 2.0, 0, 0)), w.stages());
        assertEquals(0.5, w.sendCapFraction(), 1e-12);
        assertEquals(0, w.fixedSecondsPerStage());
    }

    @Test
    void aloneAtFullRateTheSimulatedJobTakesAsLongAsTheRecord() {
        TopologyNetwork net = new TopologyNetwork(Topologies.singleSwitch(3, 0.02, 9), 0.02);
        WorkloadSpec w = RecordedWorkload.of("burst", HALF_RATE_BURST, 2, LINE);
        double t = new Simulation(net, List.of(new JobSpec("j", w, 1, List.of("h2", "h3"))),
                PerFlowMaxMinPolicy.FACTORY).run().completionSeconds().get("j");
        assertEquals(5.0, t, 1e-6);
    }

    @Test
    void aRecordOfOneInstanceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RecordedWorkload.of("x", HALF_RATE_BURST, 1, LINE));
    }
}
