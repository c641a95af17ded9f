package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.ModelChoice;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.policy.AppPresence;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.SabaPlan;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import io.saba.rperf.switchmodel.VlArbitration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each mode writes into the fabric's ports. */
class VlSetupTest {
    static final ModelParams P = ModelParams.paperDefaults();
    final List<WorkloadSpec> workloads = PacketStudy.workloads(1e-5, 4, 56e9 / 8);
    final LeafSpine shape = new LeafSpine(1, 4, 1);
    final PortId h0 = new PortId("h0", 0);

    private List<JobSpec> threeJobsOnH0(WorkloadSpec a, WorkloadSpec b, WorkloadSpec c) {
        return List.of(new JobSpec("x", a, 1.0, List.of("h0", "h1")), new JobSpec("y", b, 1.0, List.of("h0", "h2")),
                new JobSpec("z", c, 1.0, List.of("h0", "h3")));
    }

    /** The controller's pipeline on packet profiles of a sensitive workload (5) and an insensitive one (11). */
    private ControllerPlanner sensitiveAndInsensitivePlanner() {
        PacketProfiler profiler = new PacketProfiler(P, Policy.RR, ModelChoice.paper(3));
        SensitivityTable table = SensitivityTable.empty().with(profiler.entry(workloads.get(5)))
                .with(profiler.entry(workloads.get(11)));
        return ControllerPlanner.centralised(table, new MinSlowdownSolver(), 16, 8, 1.0);
    }

    /** The controller's pipeline with {@code level-per: application} on the same two profiles. */
    private ControllerPlanner perApplicationPlanner(SensitivityTable table, int queues) {
        return ControllerPlanner.centralised(table, new MinSlowdownSolver(), Allocation.EQ2, 16, queues, 1.0,
                LevelMode.APPLICATION);
    }

    /** Weight per VL, in 64-byte units, summed over a table's entries. */
    private static double[] weightPerVl(VlArbitration arb, int vls) {
        double[] w = new double[vls];
        for (VlArbitration.Entry e : arb.low()) {
            w[e.vl()] += e.weight();
        }
        return w;
    }

    @Test
    void aVlPerApplicationWhileThePortHasOneLeftThenSharedInTurn() {
        List<JobSpec> jobs = threeJobsOnH0(workloads.get(0), workloads.get(1), workloads.get(2));
        VlSetup.Applied four = new VlSetup(4, 8, null).apply(VlMode.VL_PER_APPLICATION, shape.build(P, Policy.RR, 4),
                jobs);
        assertEquals(Map.of("x", 1, "y", 2, "z", 3), four.slOf());
        assertEquals(List.of(1, 2, 3), List.of(four.vlOf("x", h0), four.vlOf("y", h0), four.vlOf("z", h0)));
        double[] w = weightPerVl(four.arbitration().get(h0), 4);
        assertEquals(0, w[0]);
        assertTrue(w[1] > 0 && w[1] == w[2] && w[2] == w[3], java.util.Arrays.toString(w));
        // h1's NIC carries x only: one VL, all the weight
        assertEquals(1, four.vlOf("x", new PortId("h1", 0)));

        VlSetup.Applied three = new VlSetup(3, 8, null).apply(VlMode.VL_PER_APPLICATION,
                shape.build(P, Policy.RR, 3), jobs);
        assertEquals(List.of(1, 2, 1), List.of(three.vlOf("x", h0), three.vlOf("y", h0), three.vlOf("z", h0)));
        VlSetup.Applied nicsOnly = new VlSetup(4, 8, null, java.util.EnumSet.of(LeafSpine.Tier.NIC))
                .apply(VlMode.VL_PER_APPLICATION, shape.build(P, Policy.RR, 4), jobs);
        assertEquals(3, nicsOnly.vlOf("z", h0));
        assertEquals(0, nicsOnly.vlOf("z", new PortId("leaf0", 3)), "the leaf's port toward h3 keeps one VL");
        assertTrue(nicsOnly.sl2vl().keySet().stream().allMatch(p -> p.node().startsWith("h")));
        VlSetup.Applied shared = new VlSetup(3, 8, null).apply(VlMode.SHARED, shape.build(P, Policy.RR, 3), jobs);
        assertTrue(shared.arbitration().isEmpty());
        assertEquals(Map.of("x", 0, "y", 0, "z", 0), shared.slOf());
    }

    /**
     * Saba: SL = the planned level, SL-to-VL = the port's level → queue map, VL weights = the port's queue weights as
     * the InfiniBand backend's table rounds them (one to four MTU packets per entry, 8 entries), on the plan the
     * controller's pipeline makes for the same applications and ports; the jobs then run to the end.
     */
    @Test
    void sabaWritesTheControllersLevelsQueuesAndWeights() {
        ControllerPlanner planner = sensitiveAndInsensitivePlanner();
        List<JobSpec> jobs = threeJobsOnH0(workloads.get(5), workloads.get(11), workloads.get(11));
        LeafSpine.Fabric f = shape.build(P, Policy.RR, 9);
        VlSetup.Applied applied = new VlSetup(9, 8, planner).apply(VlMode.SABA, f, jobs);

        List<AppPresence> apps = new ArrayList<>();
        Map<String, java.util.Set<PortId>> ports = VlSetup.portsOf(new LeafSpineNetwork(shape, 56), jobs);
        jobs.forEach(j -> apps.add(new AppPresence(j.id(), j.workload().name(), ports.get(j.id()))));
        SabaPlan plan = planner.fresh().plan(apps);
        assertEquals(plan.levelOfApp(), applied.slOf());
        assertNotEquals(applied.slOf().get("x"), applied.slOf().get("y"), "different sensitivities, different levels");
        assertEquals(applied.slOf().get("y"), applied.slOf().get("z"), "one workload, one level");

        PortAllocation pa = plan.ports().get(h0);
        int vx = applied.vlOf("x", h0);
        int vy = applied.vlOf("y", h0);
        assertEquals(pa.queueOfLevel().get(applied.slOf().get("x")), vx);
        assertEquals(pa.queueOfLevel().get(applied.slOf().get("y")), vy);
        double[] asked = pa.queueWeights();
        double[] got = weightPerVl(applied.arbitration().get(h0), 9);
        double total = got[vx] + got[vy];
        assertEquals(asked[vx] / (asked[vx] + asked[vy]), got[vx] / total, 0.07, "x's share of h0's NIC");
        assertTrue(pa.appWeights().get("x") > pa.appWeights().get("y"), "the sensitive workload gets more than each "
                + "insensitive one: " + pa.appWeights());

        Map<String, Double> done = new RoundDriver(f, jobs, applied.slOf()).run().completionSeconds();
        assertEquals(3, done.size());
    }

    /**
     * Saba with spare VLs spread: the two jobs of one workload (one level, one VL as planned) get SLs of their own and
     * VLs of their own on the NIC they share, splitting their queue's weight; the other job keeps its queue's VL.
     */
    @Test
    void spreadGivesAPortsSpareVlsToTheApplicationsOfOneLevel() {
        ControllerPlanner planner = sensitiveAndInsensitivePlanner();
        List<JobSpec> jobs = threeJobsOnH0(workloads.get(5), workloads.get(11), workloads.get(11));
        VlSetup.Applied planned = new VlSetup(9, 8, planner).apply(VlMode.SABA, shape.build(P, Policy.RR, 9), jobs);
        LeafSpine.Fabric f = shape.build(P, Policy.RR, 9);
        VlSetup.Applied spread = new VlSetup(9, 8, planner).withSpreadApplications().apply(VlMode.SABA, f, jobs);

        assertEquals(3, new java.util.HashSet<>(spread.slOf().values()).size(), "an SL per job: " + spread.slOf());
        assertEquals(planned.vlOf("x", h0), spread.vlOf("x", h0));
        int vy = spread.vlOf("y", h0);
        int vz = spread.vlOf("z", h0);
        assertEquals(planned.vlOf("y", h0), vy);
        assertNotEquals(vy, vz, "y and z separated on the NIC they share");
        double[] before = weightPerVl(planned.arbitration().get(h0), 9);
        double[] after = weightPerVl(spread.arbitration().get(h0), 9);
        double sumBefore = java.util.Arrays.stream(before).sum();
        double sumAfter = java.util.Arrays.stream(after).sum();
        // the tables round weights to whole entries (as the sabaWrites… case allows, 0.07 of the port)
        assertEquals(before[vy] / sumBefore, (after[vy] + after[vz]) / sumAfter, 0.07,
                "the queue's share split between its jobs, not added to");
        assertEquals(after[vy] / sumAfter, after[vz] / sumAfter, 0.07);
        // h2's NIC carries y alone: nothing to spread
        assertEquals(planned.vlOf("y", new PortId("h2", 0)), spread.vlOf("y", new PortId("h2", 0)));

        Map<String, Double> done = new RoundDriver(f, jobs, spread.slOf()).run().completionSeconds();
        assertEquals(3, done.size());
    }

    /**
     * The controller with a level per application: the two jobs of one workload (one level, one VL per workload) get
     * levels, so SLs, of their own, and VLs of their own on the NIC they share with their shares as weights, which
     * add up to their workload's queue; on a port with two VLs for Saba they share one again, apart from the other
     * workload's job.
     */
    @Test
    void aLevelPerApplicationSeparatesOneWorkloadsJobsWhereThePortHasRoom() {
        PacketProfiler profiler = new PacketProfiler(P, Policy.RR, ModelChoice.paper(3));
        SensitivityTable table = SensitivityTable.empty().with(profiler.entry(workloads.get(5)))
                .with(profiler.entry(workloads.get(11)));
        List<JobSpec> jobs = threeJobsOnH0(workloads.get(5), workloads.get(11), workloads.get(11));
        VlSetup.Applied planned = new VlSetup(9, 8, ControllerPlanner.centralised(table, new MinSlowdownSolver(), 16,
                8, 1.0)).apply(VlMode.SABA, shape.build(P, Policy.RR, 9), jobs);
        LeafSpine.Fabric f = shape.build(P, Policy.RR, 9);
        VlSetup.Applied apps = new VlSetup(9, 8, perApplicationPlanner(table, 8)).apply(VlMode.SABA, f, jobs);

        assertEquals(3, new java.util.HashSet<>(apps.slOf().values()).size(), "an SL per job: " + apps.slOf());
        int vx = apps.vlOf("x", h0);
        int vy = apps.vlOf("y", h0);
        int vz = apps.vlOf("z", h0);
        assertEquals(3, java.util.Set.of(vx, vy, vz).size(), "a VL per job on the NIC they share");
        double[] before = weightPerVl(planned.arbitration().get(h0), 9);
        double[] after = weightPerVl(apps.arbitration().get(h0), 9);
        double sumBefore = java.util.Arrays.stream(before).sum();
        double sumAfter = java.util.Arrays.stream(after).sum();
        assertEquals(before[planned.vlOf("y", h0)] / sumBefore, (after[vy] + after[vz]) / sumAfter, 0.07,
                "the workload's share split between its jobs");
        assertEquals(after[vy] / sumAfter, after[vz] / sumAfter, 0.07);

        VlSetup.Applied narrow = new VlSetup(3, 8, perApplicationPlanner(table, 2)).apply(VlMode.SABA,
                shape.build(P, Policy.RR, 3), jobs);
        assertEquals(narrow.vlOf("y", h0), narrow.vlOf("z", h0), "two VLs for three jobs: one workload's share one");
        assertNotEquals(narrow.vlOf("x", h0), narrow.vlOf("y", h0));

        Map<String, Double> done = new RoundDriver(f, jobs, apps.slOf()).run().completionSeconds();
        assertEquals(3, done.size());
    }
}
