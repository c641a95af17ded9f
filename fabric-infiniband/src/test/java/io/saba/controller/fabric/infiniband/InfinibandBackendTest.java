package io.saba.controller.fabric.infiniband;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackends;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.NetFiles;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The backend writing real SMPs into an OpenSM-managed ibsim subnet; smpquery is the witness. */
class InfinibandBackendTest {
    @BeforeAll
    static void tools() {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
    }

    @Test
    void writesReadsBackReportsDriftAndRestores() {
        try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve("net.2sw2path4hca"), 0)) {
            IbSubnet f = sim.tools().discover();
            int lid = f.switchNamed("Switch1").lid();
            SmpQuery.VlArb before3 = SmpQuery.vlarb(sim.tools(), lid, 3);
            Map<Integer, List<Integer>> sl2vlBefore3 = SmpQuery.sl2vl(sim.tools(), lid, 3);
            SmpQuery.VlArb before5 = SmpQuery.vlarb(sim.tools(), lid, 5);
            try (FabricBackend b = FabricBackends.create("infiniband", Map.of("ibsim", sim.socket(),
                    "packet-model", "bytes"))) {
                InfinibandBackend ib = (InfinibandBackend) b;
                PortId p3 = new PortId("Switch1", 3);
                PortAllocation a = new PortAllocation(p3, Map.of(0, 0, 2, 1, 5, 2),
                        new double[] {0.1, 0.6, 0.3, 0, 0, 0, 0, 0}, Map.of());
                ApplyResult r = b.apply(List.of(a, new PortAllocation(new PortId("NoSuchSwitch", 1), Map.of(0, 0),
                        new double[] {1}, Map.of())));
                assertEquals(Set.of(p3), r.applied());
                assertTrue(r.failed().get(new PortId("NoSuchSwitch", 1)).contains("no switch named"), r.toString());

                SmpQuery.VlArb now = SmpQuery.vlarb(sim.tools(), lid, 3);
                assertEquals(Map.of(0, 1, 1, 6, 2, 3), SmpQuery.weightPerVl(now.low()), now.toString());
                assertTrue(SmpQuery.weightPerVl(now.high()).isEmpty(), "high table empty: " + now.high());
                Map<Integer, List<Integer>> sl2vl = SmpQuery.sl2vl(sim.tools(), lid, 3);
                List<Integer> expected = List.of(0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
                assertFalse(sl2vl.isEmpty());
                sl2vl.forEach((in, vls) -> assertEquals(expected, vls, "input port " + in));
                assertEquals(before5, SmpQuery.vlarb(sim.tools(), lid, 5), "a port not named is left alone");
                assertEquals(null, b.driftCheck().last(), "not checked yet");
                assertTrue(ib.verify().isEmpty(), "no drift right after writing");

                // another agent rewrites the low table: verify() reports it, naming the port
                try (SmpAgent other = new SmpAgent(sim.env(), null, 0, 200, 10_000)) {
                    other.set(lid, Smp.ATTR_VL_ARBITRATION, (1 << 16) | 3,
                            VlArbPlan.encode(List.of(new VlArbPlan.Entry(1, 9)), 1)[0]);
                }
                Map<PortId, String> drift = ib.verify();
                assertEquals(Set.of(p3), drift.keySet());
                assertTrue(drift.get(p3).contains("low VLArb"), drift.toString());
                assertEquals(drift, b.drift(), "what the controller's status shows");
                DriftCheck check = b.driftCheck();
                assertEquals(Duration.ZERO, check.every(), "verify-seconds not set: no periodic check");
                assertTrue(check.last() != null && check.ports() == 1 && !check.repairs(), check.toString());

                // a weight change rewrites the arbitration table; the same allocation twice writes nothing new
                PortAllocation a2 = new PortAllocation(p3, Map.of(0, 0, 2, 1, 5, 2),
                        new double[] {0.25, 0.25, 0.5, 0, 0, 0, 0, 0}, Map.of());
                assertTrue(b.apply(List.of(a2)).ok());
                assertTrue(b.apply(List.of(a2)).ok());
                assertEquals(Map.of(0, 1, 1, 1, 2, 2),
                        SmpQuery.weightPerVl(SmpQuery.vlarb(sim.tools(), lid, 3).low()));

                // a queue the port does not have fails that port, which keeps its tables
                PortAllocation tooMany = new PortAllocation(p3, Map.of(0, 0, 9, 9),
                        new double[] {0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5}, Map.of());
                ApplyResult bad = b.apply(List.of(tooMany));
                assertTrue(bad.failed().get(p3).contains("OperVLs"), bad.toString());
                assertEquals(Map.of(0, 1, 1, 1, 2, 2),
                        SmpQuery.weightPerVl(SmpQuery.vlarb(sim.tools(), lid, 3).low()));

                assertTrue(b.release(Set.of(p3)).ok());
                assertEquals(before3, SmpQuery.vlarb(sim.tools(), lid, 3), "back to what OpenSM/ibsim had");
                assertEquals(sl2vlBefore3, SmpQuery.sl2vl(sim.tools(), lid, 3));
                assertNotEquals(now, before3);
            }
        }
    }

    /**
     * Coexistence with OpenSM: with QoS off (the default) a new OpenSM master (restart, fail-over) leaves Saba's
     * tables alone; with QoS on ({@code -Q}) it rewrites them (its first sweep forces its own VL tables onto every
     * port), verify() reports the drift and repair puts Saba's back.
     */
    @Test
    void openSmQosOffLeavesTablesAloneQosOnIsReportedAsDrift() throws InterruptedException {
        for (boolean qos : new boolean[] {false, true}) {
            try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve("net.2sw2path4hca"), 0,
                    qos ? List.of("-Q") : List.of());
                 FabricBackend b = FabricBackends.create("infiniband", Map.of("ibsim", sim.socket(),
                         "packet-model", "bytes", "repair", "true"))) {
                InfinibandBackend ib = (InfinibandBackend) b;
                PortId p3 = new PortId("Switch1", 3);
                assertTrue(b.apply(List.of(new PortAllocation(p3, Map.of(0, 0, 4, 1),
                        new double[] {0.2, 0.8}, Map.of()))).ok());
                assertTrue(ib.verify().isEmpty());
                sim.restartOpenSm();
                Thread.sleep(2000); // the QoS MADs follow the routing in the same sweep; give them time to land
                Map<PortId, String> drift = ib.verify();
                System.out.println("OpenSM qos " + (qos ? "on" : "off") + ", after an SM restart: drift " + drift);
                if (qos) {
                    assertEquals(Set.of(p3), drift.keySet(), "QoS on: OpenSM rewrote Saba's tables");
                    assertTrue(ib.verify().isEmpty(), "repair put them back");
                } else {
                    assertTrue(drift.isEmpty(), "QoS off: OpenSM left them alone");
                }
            }
        }
    }

    /** ibsim drops every VL arbitration MAD to Switch1: that port fails with the reason, Switch2's is written. */
    @Test
    void aSwitchThatDropsMadsFailsOnlyItsPorts() {
        try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve("net.2sw2path4hca"), 0);
             FabricBackend b = FabricBackends.create("infiniband", Map.of("ibsim", sim.socket()))) {
            IbSubnet f = sim.tools().discover();
            PortId bad = new PortId("Switch1", 3);
            PortId good = new PortId("Switch2", 1);
            List<PortAllocation> both = List.of(
                    new PortAllocation(bad, Map.of(0, 0, 1, 1), new double[] {0.1, 0.9}, Map.of()),
                    new PortAllocation(good, Map.of(0, 0, 1, 1), new double[] {0.1, 0.9}, Map.of()));
            sim.console("Error \"Switch1\" 100 24"); // 100 % error rate on attribute 0x18 (VLArbitration)
            IbSim.waitFor(() -> {
                try {
                    SmpQuery.vlarb(sim.tools(), f.switchNamed("Switch1").lid(), 3);
                    return false;
                } catch (RuntimeException dropped) {
                    return true;
                }
            }, 10_000);
            ApplyResult r = b.apply(both);
            System.out.println("Switch1 dropping VLArb MADs: " + r);
            assertEquals(Set.of(good), r.applied());
            assertTrue(r.failed().get(bad).contains("attribute 0x18"), r.failed().toString());
            assertEquals(Map.of(0, 32, 1, 255 + 32),
                    SmpQuery.weightPerVl(SmpQuery.vlarb(sim.tools(), f.switchNamed("Switch2").lid(), 1).low()));
            sim.console("Error \"Switch1\" 0 24");
            IbSim.waitFor(() -> b.apply(both).ok(), 10_000);
            assertEquals(Map.of(0, 32, 1, 255 + 32),
                    SmpQuery.weightPerVl(SmpQuery.vlarb(sim.tools(), f.switchNamed("Switch1").lid(), 3).low()));
        }
    }

    @Test
    void noUmadFailsPortsQuicklyWithTheReason() {
        // configured against an ibsim socket nobody serves: refused at once, in one line naming the socket
        io.saba.controller.StartupException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.saba.controller.StartupException.class, () -> FabricBackends.create("infiniband",
                        Map.of("ibsim", "saba-nobody-listens")));
        assertTrue(refused.getMessage().contains("no ibsim serves the socket 'saba-nobody-listens'"),
                refused.getMessage());
        // the socket gone after start: the agent cannot open umad; every port fails, naming why, none hangs
        Map<String, String> env = io.saba.controller.topology.infiniband.IbTools.ibsimEnv("saba-nobody-listens");
        io.saba.controller.topology.infiniband.IbTools tools =
                new io.saba.controller.topology.infiniband.IbTools(env, null, 0, 3000);
        try (FabricBackend b = new InfinibandBackend(new SmpAgent(env, null, 0, 200, 3000), tools::discover,
                InfinibandBackend.PacketModel.MTU, 0, false)) {
            long t0 = System.nanoTime();
            ApplyResult r = b.apply(List.of(new PortAllocation(new PortId("Switch1", 3), Map.of(0, 0),
                    new double[] {1, 0}, Map.of())));
            assertFalse(r.ok());
            assertTrue(r.failed().get(new PortId("Switch1", 3)).contains("ibnetdiscover did not finish"), r.toString());
            System.out.println("no subnet: " + r.failed() + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
    }
}
