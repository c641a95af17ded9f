package io.saba.harness.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.IdealMaxMinPolicy;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-checked rounds behind a bulk job. Single switch at LINE bytes/s; the bulk job (h1, h2) shuffles 100·LINE per
 * flow, longer than the whole test; the round job (h3, h2) runs 5 rounds of 1 s compute and a shuffle of LINE per
 * flow. Per-flow fair, each round's flows get LINE/2 on the two ports they share with the bulk flows (sw → h2 and
 * h2's own egress), so a round takes 1 + 2 = 3 s and the job 15 s without queueing delay.
 */
class QueueingDelayTest {
    private static final double LINE = 7e9;
    private final FlowNetwork network = Networks.singleSwitch(8);
    private final JobSpec bulk = new JobSpec("bulk", workload(1, 0, 4 * 100 * LINE), 1.0, List.of("h1", "h2"));
    private final JobSpec rounds = new JobSpec("rounds", workload(5, 1, 4 * LINE), 1.0, List.of("h3", "h2"));

    private static WorkloadSpec workload(int repeat, double compute, double bytes) {
        return new WorkloadSpec("w", 2, 0, 1.0, List.of(new StageSpec(repeat, compute, bytes, 0)));
    }

    private double roundsJob(PolicyFactory policy, QueueingDelay delay) {
        Simulation s = new Simulation(network, List.of(bulk, rounds), policy);
        return (delay == null ? s : s.queueingDelay(delay)).run().completionSeconds().get("rounds");
    }

    @Test
    void aRoundWaitsThereAndBackBehindTheBulkFlowInItsFifo() {
        assertEquals(15.0, roundsJob(PerFlowMaxMinPolicy.FACTORY, null), 1e-9);
        // one bulk flow ahead on sw → h2 (there) and on h2's egress (back): 0.01·LINE bytes each at LINE ⇒ 10 ms
        // per hop, 20 ms per round; h3's egress and sw → h3 carry the round alone, at half the link: not saturated
        QueueingDelay tenMs = new QueueingDelay("t", 0.01 * LINE, Double.POSITIVE_INFINITY);
        assertEquals(15.0 + 5 * 0.02, roundsJob(PerFlowMaxMinPolicy.FACTORY, tenMs), 1e-9);
    }

    @Test
    void aFullDropTailQueueCapsTheWait() {
        // the queue holds at most 5 ms of the link, whatever the flows ahead would buffer
        QueueingDelay capped = new QueueingDelay("t", 0.01 * LINE, 0.005);
        assertEquals(15.0 + 5 * 0.01, roundsJob(PerFlowMaxMinPolicy.FACTORY, capped), 1e-9);
    }

    @Test
    void aQueueOfItsOwnMeansNoWait() {
        // one queue per application (a VL or an HTB class each): nothing of the bulk job is ahead of the round
        QueueingDelay tenMs = new QueueingDelay("t", 0.01 * LINE, Double.POSITIVE_INFINITY);
        assertEquals(15.0, roundsJob(IdealMaxMinPolicy.FACTORY, tenMs), 1e-9);
    }

    @Test
    void theWaitIsTheBacklogAtTheQueuesRate() {
        QueueingDelay q = new QueueingDelay("t", 1000, 0.004);
        assertEquals(3000 / 5e5, q.wait(3, 1e6, 5e5), 1e-12);
        assertEquals(0.004 * 1e6 / 5e5, q.wait(30, 1e6, 5e5), 1e-12); // full: 4 ms of the link
        assertEquals(0, q.wait(0, 1e6, 5e5));
        assertEquals(QueueingDelay.TESTBED, QueueingDelay.named("testbed"));
        assertEquals(31_500, QueueingDelay.INFINIBAND.perFlowBytes(), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> QueueingDelay.named("fifo"));
        assertThrows(IllegalArgumentException.class, () -> new QueueingDelay("t", -1, 1));
    }
}
