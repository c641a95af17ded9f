package io.saba.controller.fabric.infiniband;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbTools;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the controller tests on ibsim share: a controller configuration as an operator writes it for the fat tree's
 * hosts, endpoints by host number, waiting for the controller's ports, and a port's tables read back with
 * {@code smpquery} against the allocation the controller computed for it.
 */
final class ControllerOnIbSim {
    private ControllerOnIbSim() {
    }

    /**
     * The status pages on an ephemeral loopback port, {@code topology: {discover: infiniband}} with hosts h01…h{@code hosts} at 10.0.0.N, the example table, 16
     * levels, C_Saba 0.9 and the InfiniBand backend, both on the simulated subnet.
     *
     * @param topologyKeys more keys of the topology section, e.g. {@code "refresh-seconds: 0"}
     */
    static Path config(Path dir, IbSim sim, int hosts, String... topologyKeys) throws IOException {
        StringBuilder addresses = new StringBuilder();
        for (int i = 1; i <= hosts; i++) {
            addresses.append(String.format("h%02d: [10.0.0.%d], ", i, i));
        }
        StringBuilder extra = new StringBuilder();
        for (String k : topologyKeys) {
            extra.append(k).append(", ");
        }
        Path table = Path.of("../examples/sensitivity-table.json").toAbsolutePath().normalize();
        return Files.writeString(dir.resolve("controller.yaml"), String.join("\n",
                "listen: 127.0.0.1:0",
                "http: 127.0.0.1:0",
                "topology: {discover: infiniband, ibsim: " + sim.socket() + ", " + extra + "queues: 8,",
                "           addresses: {" + addresses + "}}",
                "table: " + table,
                "levels: 16",
                "c-saba: 0.9",
                "recompute-interval-millis: 20",
                "backend: infiniband",
                "backend-options: {ibsim: " + sim.socket() + "}",
                ""));
    }

    static InetSocketAddress ep(int host, int port) {
        return new InetSocketAddress("10.0.0." + host, port);
    }

    /** Waits until the controller's allocation covers exactly these ports and nothing is left to push. */
    static void awaitPorts(EmbeddedController c, Set<PortId> ports) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < end) {
            if (c.controller().recomputer().awaitQuiescent(Duration.ofSeconds(5))
                    && c.controller().recomputer().current().keySet().equals(ports)) {
                return;
            }
            Thread.sleep(100);
        }
        assertEquals(ports, c.controller().recomputer().current().keySet(), "ports allocated");
    }

    /**
     * The port's tables, read by {@code smpquery}, are the allocation's: the arbitration weights its plan gives
     * (low table; the high table empty) and the SL of each level present → its queue, from every input port.
     *
     * @return the low-priority table's plan
     */
    static VlArbPlan checkPort(IbTools tools, IbSubnet f, PortId p, PortAllocation a, InfinibandBackend backend) {
        int lid = f.switchNamed(p.node()).lid();
        SmpQuery.VlArb vlarb = SmpQuery.vlarb(tools, lid, p.port());
        Map<Integer, List<Integer>> sl2vl = SmpQuery.sl2vl(tools, lid, p.port());
        PortCaps caps = backend.caps(p).orElseThrow();
        double[] w = java.util.Arrays.copyOf(a.queueWeights(), caps.operVls());
        VlArbPlan plan = VlArbPlan.of(w, caps.lowCap(), caps.mtuBytes() / 64);
        assertEquals(SmpQuery.weightPerVl(plan.entries()), SmpQuery.weightPerVl(vlarb.low()), p + " low table");
        assertTrue(SmpQuery.weightPerVl(vlarb.high()).isEmpty(), p + " high table empty");
        Map<Integer, Integer> vlOfSl = new HashMap<>();
        for (int sl = 0; sl < 16; sl++) {
            vlOfSl.put(sl, a.queueOfLevel().getOrDefault(sl, 0));
        }
        for (Map.Entry<Integer, List<Integer>> e : sl2vl.entrySet()) {
            for (int sl = 0; sl < 16; sl++) {
                assertEquals(vlOfSl.get(sl), e.getValue().get(sl), p + " SL " + sl + " from input " + e.getKey());
            }
        }
        return plan;
    }

    interface Check {
        boolean ok();
    }

    /** Waits up to 60 s; a check that throws (a switch without a route for a moment, mid re-route) is not yet. */
    static void waitFor(Check check) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < end) {
            try {
                if (check.ok()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // mid re-route: a switch may have no route for a moment
            }
            Thread.sleep(300);
        }
        throw new AssertionError("not reached within 60 s");
    }
}
