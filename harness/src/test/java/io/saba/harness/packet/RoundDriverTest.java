package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jobs of synchronous rounds on the packet-level fabric, against times worked out by hand. */
class RoundDriverTest {
    static final ModelParams P = ModelParams.paperDefaults();
    static final double SER_4K_US = 0.588857;
    static final double SER_ACK_US = 0.004286;
    static final double LAT_US = 0.2;

    /** A workload of {@code rounds} rounds: {@code computeUs} on each of n = profiled instances, then all-to-all. */
    static WorkloadSpec rounds(String name, int n, int rounds, double computeUs, long bytesPerPair) {
        return new WorkloadSpec(name, n, 0, 1.0,
                List.of(new StageSpec(rounds, computeUs * 1e-6, (double) bytesPerPair * n * n, 0)));
    }

    private static Map<String, Double> run(LeafSpine shape, int vls, List<JobSpec> jobs, VlMode mode) {
        LeafSpine.Fabric f = shape.build(P, Policy.RR, vls);
        Map<String, Integer> sl = new VlSetup(vls, 8, null).apply(mode, f, jobs).slOf();
        return new RoundDriver(f, jobs, sl).run().completionSeconds();
    }

    private static double fluid(LeafSpine shape, List<JobSpec> jobs, String job) {
        return new Simulation(new LeafSpineNetwork(shape, P.linkGbps()), jobs, PerFlowMaxMinPolicy.FACTORY).run()
                .completionSeconds().get(job);
    }

    /**
     * Four instances on one leaf, 3 rounds of 10 µs compute and 64 KiB (16 packets) per pair. Each instance sends
     * 48 packets per round, back to back, with some of the ACKs for the 48 it receives in between (30 B each), and the
     * round ends when the last packet has crossed the leaf (200 ns + one serialisation). So a round takes 10 µs +
     * 48 × 0.589 µs + 0.789 µs plus at most 48 ACKs: 39.05–39.26 µs. The fluid model, with no headers, ACKs or
     * latency, says 10 + 48 × 4096 × 8 / 56 Gb/s = 38.09 µs.
     */
    @Test
    void aJobAloneTakesItsRoundsComputeAndSerialisation() {
        LeafSpine shape = new LeafSpine(1, 4, 1);
        JobSpec job = new JobSpec("j", rounds("w", 4, 3, 10, 16 * 4096), 1.0, List.of("h0", "h1", "h2", "h3"));
        double us = run(shape, 2, List.of(job), VlMode.SHARED).get("j") * 1e6;
        double low = 3 * (10 + 48 * SER_4K_US + LAT_US + SER_4K_US);
        assertTrue(us >= low - 1e-6 && us <= low + 3 * 48 * SER_ACK_US, us + " µs, hand: " + low + " + ACKs");
        assertEquals(3 * (10 + 48 * 4096 * 8 / 56e3), fluid(shape, List.of(job), "j") * 1e6, 1e-6);
    }

    /**
     * The congestion tree of the switch model's CongestionTreeTest, made of jobs. Two leaves of six hosts, three
     * spines (D-mod-K: host h is reached through spine h mod 3). Three jobs of two instances each pair host x = h6
     * with h7, h8 (on x's leaf) and h0 (the other leaf): x's downlink serves three inputs in turn, so what comes from
     * h0 gets a third of it. The victim B (h1, h9) shares only h0's path, leaf 0 → spine 0 → leaf 1 (9 mod 3 = 0);
     * its way back goes through spine 1. It sends 4 MiB each way in one round (the others send 12 MiB, so they last
     * longer).
     *
     * <ul>
     *   <li>One shared VL: B's packets queue behind h0's in leaf 1's buffer from the spine and leave at most one per
     *       turn of that buffer at x's port, one turn in three packet times: at least 1,024 × 1.767 µs = 1,809 µs.
     *       The ACKs of x's own data to h0 wait in the same buffer for the same port and take some of those turns
     *       (1,901 µs when written; we allow 15 % above the bound).</li>
     *   <li>A VL per job: B takes the two thirds of the path h0's traffic cannot use: 905 µs (± 3 % for headers and
     *       ACKs).</li>
     *   <li>Fluid per-flow max-min (no buffers): the same two thirds, 4 MiB × 8 / 37.33 Gb/s = 899 µs.</li>
     *   <li>Alone: B at line rate, 1,024 × 0.589 µs = 603 µs.</li>
     * </ul>
     */
    @Test
    void aVictimOfACongestionTreeIsSlowedOnlyOnASharedVl() {
        LeafSpine shape = new LeafSpine(2, 6, 3);
        List<JobSpec> jobs = List.of(
                new JobSpec("a1", rounds("a", 2, 1, 0, 12L << 20), 1.0, List.of("h6", "h7")),
                new JobSpec("a2", rounds("a", 2, 1, 0, 12L << 20), 1.0, List.of("h6", "h8")),
                new JobSpec("a3", rounds("a", 2, 1, 0, 12L << 20), 1.0, List.of("h0", "h6")),
                new JobSpec("b", rounds("b", 2, 1, 0, 4L << 20), 1.0, List.of("h1", "h9")));
        double cycle = 3 * SER_4K_US;
        double shared = run(shape, 5, jobs, VlMode.SHARED).get("b") * 1e6;
        double own = run(shape, 5, jobs, VlMode.VL_PER_APPLICATION).get("b") * 1e6;
        double fluid = fluid(shape, jobs, "b") * 1e6;
        assertTrue(shared >= 1024 * cycle * 0.97 && shared <= 1.15 * 1024 * cycle, "shared " + shared);
        assertEquals(512 * cycle, own, 0.03 * 512 * cycle);
        assertEquals((4L << 20) * 8 / (56e3 * 2 / 3), fluid, 1);
        double alone = run(shape, 5, List.of(jobs.get(3)), VlMode.SHARED).get("b") * 1e6;
        assertEquals(1024 * SER_4K_US, alone, 0.02 * 1024 * SER_4K_US);
    }
}
