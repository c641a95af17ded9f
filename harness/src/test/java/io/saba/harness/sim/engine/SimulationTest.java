package io.saba.harness.sim.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.PairedRun;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.IdealMaxMinPolicy;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationTest {
    private static final double LINE = 7e9; // 56 Gbit/s in bytes/s
    private final io.saba.harness.sim.network.FlowNetwork network = Networks.singleSwitch(8);

    private static WorkloadSpec oneStage(double compute, double bytes, double overlap, int repeat) {
        return new WorkloadSpec("w", 4, 0, 1.0, List.of(new StageSpec(repeat, compute, bytes, overlap)));
    }

    @Test
    void aJobAloneTakesComputePlusShuffleAtLineRate() {
        // 4 instances; S = 16·LINE bytes ⇒ each flow carries LINE bytes; 3 flows per uplink ⇒ 3 s of shuffle.
        JobSpec j = new JobSpec("a", oneStage(10, 16 * LINE, 0, 2), 1.0, List.of("h1", "h2", "h3", "h4"));
        SimResult r = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).run();
        assertEquals(2 * 13.0, r.completionSeconds().get("a"), 1e-9);
    }

    @Test
    void overlapHidesShuffleUnderCompute() {
        JobSpec j = new JobSpec("a", oneStage(10, 16 * LINE, 0.5, 1), 1.0, List.of("h1", "h2", "h3", "h4"));
        SimResult r = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).run();
        assertEquals(10.0, r.completionSeconds().get("a"), 1e-9); // shuffle 5..8 s, compute ends at 10 s
    }

    @Test
    void datasetAndInstancesScaleComputeAndBytes() {
        // 2 instances, dataset 2x: compute 10·2·4/2 = 40 s; bytes per flow 16·LINE·2/4 = 8·LINE at LINE ⇒ 8 s.
        JobSpec j = new JobSpec("a", oneStage(10, 16 * LINE, 0, 1), 2.0, List.of("h1", "h2"));
        SimResult r = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).run();
        assertEquals(48.0, r.completionSeconds().get("a"), 1e-9);
    }

    @Test
    void perFlowFairnessFavoursTheJobWithMoreFlowsWhileIdealMaxMinDoesNot() {
        // Job a: hosts h0..h3 (3 flows into h0); job b: h0,h4 (1 flow into h0). Both shuffle only.
        WorkloadSpec w = new WorkloadSpec("w", 2, 0, 1.0, List.of(new StageSpec(1, 0, 4 * LINE, 0)));
        JobSpec a = new JobSpec("a", w, 1.0, List.of("h1", "h2", "h3", "h4"));
        JobSpec b = new JobSpec("b", w, 1.0, List.of("h1", "h5"));
        // b: 1 flow each way of LINE bytes. Per-flow fair at h0's downlink (and uplink): 4 flows ⇒ LINE/4 each.
        SimResult perFlow = new Simulation(network, List.of(a, b), PerFlowMaxMinPolicy.FACTORY).run();
        SimResult ideal = new Simulation(network, List.of(a, b), IdealMaxMinPolicy.FACTORY).run();
        // a's flows carry LINE/4 bytes: alone at h0 they'd take 0.75 s (3 flows). With b they all get LINE/4 and
        // finish at 1 s; b then runs alone: LINE·(1 − 0.25) left ⇒ 1.75 s.
        assertEquals(1.0, perFlow.completionSeconds().get("a"), 1e-9);
        assertEquals(1.75, perFlow.completionSeconds().get("b"), 1e-9);
        // Round robin per application at h0: b gets half the link (LINE/2), a's 3 flows share the other half.
        // a: LINE/4 per flow at LINE/6 ⇒ 1.5 s; b: by 1.5 s has sent 0.75·LINE, then alone ⇒ 1.75 s.
        assertEquals(1.5, ideal.completionSeconds().get("a"), 1e-9);
        assertEquals(1.75, ideal.completionSeconds().get("b"), 1e-9);
    }

    @Test
    void sameInputSameOutput() {
        WorkloadSpec w = oneStage(1, 16 * LINE, 0.2, 3);
        List<JobSpec> jobs = List.of(new JobSpec("a", w, 1.0, List.of("h1", "h2", "h3")),
                new JobSpec("b", w, 0.1, List.of("h2", "h3", "h6", "h7")),
                new JobSpec("c", w, 10, List.of("h1", "h7")));
        SimResult r1 = new Simulation(network, jobs, IdealMaxMinPolicy.FACTORY).run();
        SimResult r2 = new Simulation(network, jobs, IdealMaxMinPolicy.FACTORY).run();
        assertEquals(r1, r2);
    }

    @Test
    void jobsOnASharedPoolOfCoresComputeAtCoresOverDemand() {
        // a: 2 instances, 10 s each; b: 2 instances, 5 s each; no shuffle. On 2 shared cores both run at half speed
        // (demand 4): b ends at 10 s having done its 5 s; a has done 5 of 10 s and finishes the rest alone by 15 s.
        WorkloadSpec w10 = new WorkloadSpec("w10", 2, 0, 1.0, List.of(new StageSpec(1, 10, 0, 0)));
        WorkloadSpec w5 = new WorkloadSpec("w5", 2, 0, 1.0, List.of(new StageSpec(1, 5, 0, 0)));
        List<JobSpec> jobs = List.of(new JobSpec("a", w10, 1.0, List.of("h1", "h2")),
                new JobSpec("b", w5, 1.0, List.of("h3", "h4")));
        SimResult shared = new Simulation(network, jobs, PerFlowMaxMinPolicy.FACTORY).sharedCores(2).run();
        assertEquals(15.0, shared.completionSeconds().get("a"), 1e-9);
        assertEquals(10.0, shared.completionSeconds().get("b"), 1e-9);
        // with a host of its own per instance, nobody waits for a core
        SimResult own = new Simulation(network, jobs, PerFlowMaxMinPolicy.FACTORY).run();
        assertEquals(10.0, own.completionSeconds().get("a"), 1e-9);
        assertEquals(5.0, own.completionSeconds().get("b"), 1e-9);
    }

    @Test
    void aPoolWithACoreForEveryInstanceChangesNothing() {
        JobSpec j = new JobSpec("a", oneStage(10, 16 * LINE, 0.5, 2), 1.0, List.of("h1", "h2", "h3", "h4"));
        SimResult own = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).run();
        SimResult pooled = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).sharedCores(4).run();
        assertEquals(own.completionSeconds().get("a"), pooled.completionSeconds().get("a"), 1e-9);
    }

    @Test
    void aShuffleWaitsForTheComputationBeforeItAndTheLinkIsIdleMeanwhile() {
        // 4 instances, 10 s of compute then 3 s of shuffle (as in the first test), twice; on 2 shared cores the
        // compute takes 20 s (demand 4) and the shuffle, which asks no core, still 3 s: 2·(20 + 3) = 46 s.
        JobSpec j = new JobSpec("a", oneStage(10, 16 * LINE, 0, 2), 1.0, List.of("h1", "h2", "h3", "h4"));
        SimResult r = new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).sharedCores(2).run();
        assertEquals(46.0, r.completionSeconds().get("a"), 1e-9);
    }

    @Test
    void aSabaRunsOwnCoresSlowOnlyThePolicysRunAndOnlyWhereTheJobsWantTheWholePool() {
        // a: 2 instances, 10 s each, no shuffle, on 2 shared cores: 10 s in the baseline. In the policy's run Saba's
        // processes keep 0.5 cores busy, so a's demand of 2 meets 1.5 cores: 10 / 0.75 = 13.33 s, a speedup of 0.75.
        // b: the same work on 1 instance (20 s): a core is spare in both runs, and Saba's processes take theirs from
        // it.
        WorkloadSpec two = new WorkloadSpec("two", 2, 0, 1.0, List.of(new StageSpec(1, 10, 0, 0)));
        WorkloadSpec one = new WorkloadSpec("one", 2, 0, 1.0, List.of(new StageSpec(1, 10, 0, 0)));
        Mechanisms m = Mechanisms.NONE.withSharedCores(2).withSabaRunCores(0.5);
        List<JobOutcome> a = PairedRun.run(0, network, List.of(new JobSpec("a", two, 1.0, List.of("h1", "h2"))),
                PerFlowMaxMinPolicy.FACTORY, PerFlowMaxMinPolicy.FACTORY, m);
        assertEquals(10.0, a.get(0).baselineSeconds(), 1e-9);
        assertEquals(0.75, a.get(0).speedup(), 1e-9);
        List<JobOutcome> b = PairedRun.run(0, network, List.of(new JobSpec("b", one, 1.0, List.of("h1"))),
                PerFlowMaxMinPolicy.FACTORY, PerFlowMaxMinPolicy.FACTORY, m);
        assertEquals(20.0, b.get(0).baselineSeconds(), 1e-9);
        assertEquals(1.0, b.get(0).speedup(), 1e-9);
        assertEquals(" shared-cores=2 saba-run-cores=0.5", m.fingerprint());
        assertTrue(m.describe().endsWith("0.5 of the cores busy with Saba's own processes in its runs"), m.describe());
    }

    @Test
    void aSabaRunsOwnCoresComeFromTheSharedPool() {
        assertThrows(IllegalArgumentException.class, () -> Mechanisms.NONE.withSabaRunCores(0.1),
                "no pool to take them from");
        assertThrows(IllegalArgumentException.class, () -> Mechanisms.NONE.withSharedCores(2).withSabaRunCores(2));
        assertThrows(IllegalArgumentException.class, () -> Mechanisms.NONE.withSharedCores(2).withSabaRunCores(-0.1));
        assertEquals(" shared-cores=2", Mechanisms.NONE.withSharedCores(2).withSabaRunCores(0).fingerprint());
    }

    @Test
    void aPoolNeedsCores() {
        JobSpec j = new JobSpec("a", oneStage(1, 0, 0, 1), 1.0, List.of("h1", "h2"));
        assertThrows(IllegalArgumentException.class,
                () -> new Simulation(network, List.of(j), PerFlowMaxMinPolicy.FACTORY).sharedCores(0));
    }
}
