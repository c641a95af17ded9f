package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The paper's qualitative findings, on short deterministic runs. These are model outputs (simulated
 * time), not wall-clock timings, so asserting on them is stable.
 */
class PaperShapeTest {
    private static final long WARM = 200 * ModelParams.PS_PER_US;
    private static final long RUN = 1_000 * ModelParams.PS_PER_US;

    private static MixedTrafficResult run(MixedTrafficConfig c) {
        return new MixedTrafficExperiment(c.withTiming(WARM, RUN).withBsgNic(NicLimit.PAPER_CONNECTX4)).run();
    }

    /** FCFS: each saturated input buffer (7 whole 4122 B packets of 32 KiB) adds 7 x 588.857 ns. */
    @Test
    void fcfsAddsOneFullBufferPerBsg() {
        double perBuffer = 7 * 0.588857;
        double n2 = run(MixedTrafficConfig.converged(2, Policy.FCFS)).lsgMedianUs();
        double n5 = run(MixedTrafficConfig.converged(5, Policy.FCFS)).lsgMedianUs();
        assertEquals(3 * perBuffer, n5 - n2, 0.05 * 3 * perBuffer);
    }

    @Test
    void roundRobinBoundsTheWaitToOnePacketPerBsg() {
        double rr5 = run(MixedTrafficConfig.converged(5, Policy.RR)).lsgMedianUs();
        assertTrue(rr5 < 0.44 + 5 * 0.59, "RR with 5 BSGs: " + rr5);
        assertTrue(rr5 < run(MixedTrafficConfig.converged(5, Policy.FCFS)).lsgMedianUs() / 5);
    }

    @Test
    void roundRobinStopsProtectingAfterTwoHops() {
        double oneHop = run(MixedTrafficConfig.converged(5, Policy.RR)).lsgMedianUs();
        double twoHops = run(MixedTrafficConfig.converged(5, Policy.RR).withTwoHop(true)).lsgMedianUs();
        assertTrue(twoHops > 4 * oneHop, oneHop + " vs " + twoHops);
    }

    @Test
    void aDedicatedHighPriorityVlProtectsTheLsgWithoutCostingBandwidth() {
        MixedTrafficResult shared = run(MixedTrafficConfig.converged(5, Policy.FCFS));
        MixedTrafficResult dedicated = run(MixedTrafficConfig.converged(5, Policy.FCFS)
                .withDedicatedVl(true, VlArbitration.UNLIMITED));
        // at most one 4 KiB packet in service ahead of it: 0.434 + 0.589 us
        assertTrue(dedicated.lsgP999Us() < 1.03, "dedicated " + dedicated.lsgP999Us());
        assertEquals(shared.totalGbps(), dedicated.totalGbps(), 0.03 * shared.totalGbps());
    }

    @Test
    void aPretendLsgOnTheLatencyVlTakesMoreThanItsShare() {
        MixedTrafficResult r = run(MixedTrafficConfig.converged(4, Policy.FCFS).withDedicatedVl(true, 1)
                .withPretend(1, 256, 0));
        double pretend = r.gbps("pretend1");
        double honest = r.gbps("bsg1");
        assertTrue(pretend > 3 * honest, pretend + " vs " + honest);
    }

    @Test
    void runsAreDeterministic() {
        MixedTrafficConfig c = MixedTrafficConfig.converged(3, Policy.FCFS);
        MixedTrafficResult a = run(c);
        MixedTrafficResult b = run(c);
        assertEquals(a.lsgRttPs(), b.lsgRttPs());
        assertEquals(a.bandwidth(), b.bandwidth());
    }
}
