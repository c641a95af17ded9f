package io.saba.controller.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.alloc.PortChanges;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.estimate.Observation;
import io.saba.core.topology.Topology;
import io.saba.wire.WorkSignals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The share an application had, from the weights pushed, and units turned into observations at it. */
class AppSharesTest {
    private static final PortId S1 = new PortId("s1", 1);
    private static final PortId S2 = new PortId("s1", 2);
    /** A fabric that knows no port's rate (as a discovered InfiniBand fabric today): units read their wait. */
    private static final Function<PortId, OptionalDouble> NO_RATES = p -> OptionalDouble.empty();

    private static PortAllocation port(PortId p, Map<String, Double> weights) {
        return new PortAllocation(p, Map.of(1, 1), new double[] {0.1, 0.9}, weights);
    }

    private static PortChanges changed(PortAllocation... ports) {
        return new PortChanges(1, List.of(ports), Set.of());
    }

    private static WorkSignals unit(long end, long duration, long run, long wait) {
        return new WorkSignals("stage 1.0", "s", end, 2, duration, run, wait, Map.of(),
                Map.of("shuffle_remote_read", 5_000L, "task_result", 100L, "shuffle_write", 7_000L), Map.of());
    }

    @Test
    void theShareIsTheWeightAmongTheSabaApplicationsAtTheBottleneckPort() {
        AppShares s = new AppShares(NO_RATES);
        s.changed(changed(port(S1, Map.of("a", 0.9))), 1_000);
        assertEquals(1.0, s.meanShare("a", 1_000, 1_500), 1e-12, "alone: the whole link");
        // b arrives at S1 (a gets 0.6 of the 0.9 Saba share, b 0.3), and a also crosses S2 with c
        s.changed(changed(port(S1, Map.of("a", 0.6, "b", 0.3)), port(S2, Map.of("a", 0.45, "c", 0.45))), 2_000);
        assertEquals(0.5, s.meanShare("a", 2_000, 3_000), 1e-12, "the smaller of 2/3 and 1/2");
        assertEquals(1.0 / 3, s.meanShare("b", 2_000, 3_000), 1e-12);
        // a unit run over [1500, 2500]: half at 1, half at 1/2
        assertEquals(0.75, s.meanShare("a", 1_500, 2_500), 1e-12);
        assertEquals(0.5, s.meanShare("a", 2_500, 2_500), 1e-12, "no duration: the share at its end");

        s.changed(new PortChanges(2, List.of(), Set.of(S2)), 3_000);
        assertEquals(2.0 / 3, s.meanShare("a", 3_000, 4_000), 1e-12, "S2 released: S1 is its bottleneck");
        s.changed(changed(port(S1, Map.of("b", 0.9))), 4_000);
        assertTrue(Double.isNaN(s.meanShare("a", 4_000, 5_000)), "no weight anywhere");
        assertEquals(2.0 / 3, s.meanShare("a", 3_500, 5_000), 1e-12, "only the part with a weight counts");
        assertTrue(Double.isNaN(s.meanShare("a", 0, 900)), "before its first weight");
        assertTrue(Double.isNaN(s.meanShare("z", 0, 900)), "never seen");
    }

    @Test
    void aUnitBecomesAnObservationAtTheShareItRanAt() {
        AppShares s = new AppShares(NO_RATES);
        s.changed(changed(port(S1, Map.of("a", 0.6, "b", 0.3))), 1_000);
        Observation o = s.observation("a", unit(2_000, 500, 4_000, 1_000));
        assertEquals(new Observation(4_000, 1_000, 0.6 / (0.6 + 0.3), 5_100), o, "network bytes: remote reads and results");
        assertNull(s.observation("z", unit(2_000, 500, 4_000, 1_000)), "a wait that cannot be placed");
        assertEquals(new Observation(4_000, 0, 1.0, 5_100), s.observation("z", unit(2_000, 500, 4_000, 0)),
                "a unit that never waited does not need a share");
        assertEquals(new Observation(4_000, 4_000, 0.6 / (0.6 + 0.3), 5_100), s.observation("a", unit(2_000, 500, 4_000, 9_000)),
                "a wait beyond the run time is clipped");
        assertNull(s.observation("a", unit(2_000, 500, 0, 0)), "no run time");

        s.retain(id -> !id.equals("a"));
        assertEquals(1, s.size());
    }

    @Test
    void applicationsLongWithoutAWeightAreForgottenEvenIfTheyNeverReport() {
        AppShares s = new AppShares(NO_RATES);
        for (int i = 0; i < 100; i++) {
            s.changed(changed(port(new PortId("s" + i, 1), Map.of("app" + i, 0.9))), 1_000);
            s.changed(new PortChanges(2, List.of(), Set.of(new PortId("s" + i, 1))), 2_000); // it left
        }
        assertEquals(100, s.size(), "kept a while: their last units may still come");
        s.changed(changed(port(S1, Map.of("a", 0.9))), 2_000 + AppShares.IDLE_MILLIS + 1);
        assertEquals(1, s.size(), "only the one with a weight");
    }

    @Test
    void theBottleneckKeptAsPortsChangeIsTheSmallestShareOverTheApplicationsPorts() {
        // random pushes (ports changing, rising, emptied, released), each checked against a search of every port;
        // some applications with a zero weight at a port, which gives them no share there
        java.util.Random r = new java.util.Random(11);
        AppShares s = new AppShares(NO_RATES);
        Map<PortId, Map<String, Double>> weights = new java.util.HashMap<>();
        List<String> apps = List.of("a", "b", "c", "d", "e");
        for (int t = 1; t <= 2_000; t++) {
            PortId p = new PortId("s" + r.nextInt(6), 1 + r.nextInt(2));
            if (r.nextInt(5) == 0) {
                weights.remove(p);
                s.changed(new PortChanges(t, List.of(), Set.of(p)), t * 10L);
            } else {
                Map<String, Double> w = new java.util.HashMap<>();
                for (String app : apps) {
                    if (r.nextInt(3) == 0) {
                        w.put(app, r.nextInt(10) == 0 ? 0.0 : 0.05 + r.nextDouble()); // a zero weight is no share
                    }
                }
                weights.put(p, w);
                s.changed(changed(port(p, w)), t * 10L);
            }
            for (String app : apps) {
                double expected = Double.NaN;
                for (Map<String, Double> w : weights.values()) {
                    Double mine = w.get(app);
                    if (mine != null && mine > 0) {
                        double share = mine / w.values().stream().mapToDouble(Double::doubleValue).sum();
                        expected = Double.isNaN(expected) ? share : Math.min(expected, share);
                    }
                }
                double kept = s.meanShare(app, t * 10L, t * 10L);
                if (Double.isNaN(expected)) {
                    assertTrue(Double.isNaN(kept), app + " has no weight anywhere at step " + t + ": " + kept);
                } else {
                    assertEquals(expected, kept, 1e-12, app + " at step " + t);
                }
            }
        }
    }

    @Test
    void offeredPushesAreAppliedTogetherAndBeforeAnObservation() {
        try (AppShares s = new AppShares(NO_RATES)) {
            s.offer(changed(port(S1, Map.of("a", 0.3, "b", 0.6))), 1_000);
            s.offer(changed(port(S1, Map.of("a", 0.6, "b", 0.3))), 1_010); // the same port again: its latest counts
            Observation o = s.observation("a", unit(3_000, 1_000, 4_000, 1_000));
            assertEquals(2.0 / 3, o.share(), 1e-12, "applied before the observation, at the latest weights");
            assertEquals(2.0 / 3, s.meanShare("a", 1_010, 2_000), 1e-12);
        }
    }

    /** The namespace testbed's shape: h1..h3 on switch sw, 20 Mbit/s links, each host's NIC egress managed. */
    private static TopologyResolver testbed() {
        Topology.Builder b = Topology.builder().switchNode("sw", 8);
        Map<String, List<String>> addresses = new HashMap<>();
        for (int i = 1; i <= 3; i++) {
            b.host("h" + i).link("h" + i, 0, "sw", i, 0.02);
            addresses.put("h" + i, List.of("10.0.0." + i));
        }
        return new TopologyResolver(b.build(), addresses).withHostEgress(8);
    }

    private static WorkSignals stage(long end, long duration, long run, long wait, Long busiestHostBytes) {
        Map<String, Long> bytes = new HashMap<>(Map.of("shuffle_remote_read", 9_000_000L, "task_result", 1_000_000L));
        if (busiestHostBytes != null) {
            bytes.put(WorkSignals.BUSIEST_HOST_IN, busiestHostBytes);
        }
        return new WorkSignals("stage 3.0", "s", end, 4, duration, run, wait, Map.of(), bytes, Map.of());
    }

    @Test
    void withTheTopologysRateAUnitsNetworkTimeIsItsBusiestHostsBytesOverTheLink() {
        TopologyResolver topology = testbed();
        PortId toH2 = topology.path("h3", "h2").get(1); // the switch's egress toward h2
        PortId nicH3 = topology.path("h3", "h2").get(0); // h3's own egress
        assertEquals(List.of(new PortId("h3", 0), new PortId("sw", 2)), List.of(nicH3, toH2));
        assertEquals(OptionalDouble.of(0.02), topology.capacityGbps(nicH3), "a host's NIC: its link's rate");
        assertEquals(OptionalDouble.of(0.02), topology.capacityGbps(toH2));
        assertEquals(OptionalDouble.empty(), topology.capacityGbps(new PortId("sw", 9)), "no such port");
        AppShares s = new AppShares(topology::capacityGbps);
        s.changed(changed(port(nicH3, Map.of("a", 0.9)), port(toH2, Map.of("a", 0.9))), 0);
        assertEquals(0.02, s.linkGbps("a"), 1e-12, "the testbed's links");

        // alone: 5 MB on the busiest host link at 20 Mbit/s is 2 s of the stage's 10 s wall time; its tasks' run
        // time (16 s) and fetch wait (1 s) do not enter
        Observation alone = s.observation("a", stage(10_000, 10_000, 16_000, 1_000, 5_000_000L));
        assertEquals(new Observation(10_000, 2_000, 1.0, 10_000_000, Observation.Signal.LINK_BYTES), alone);

        // b joins at equal weight on h2's port: a has half the link, the same bytes take 4 s
        s.changed(changed(port(toH2, Map.of("a", 0.45, "b", 0.45))), 20_000);
        Observation half = s.observation("a", stage(30_000, 10_000, 16_000, 0, 5_000_000L));
        assertEquals(new Observation(10_000, 4_000, 0.5, 10_000_000, Observation.Signal.LINK_BYTES), half);

        // no byte on a link: no network time, and no share needed
        assertEquals(new Observation(10_000, 0, 1.0, 10_000_000, Observation.Signal.LINK_BYTES),
                s.observation("a", stage(30_000, 10_000, 16_000, 0, 0L)));

        // a plugin without per-host bytes: the fetch wait against the run time, as before
        assertEquals(new Observation(16_000, 1_000, 0.5, 10_000_000), s.observation("a",
                stage(30_000, 10_000, 16_000, 1_000, null)));

        // a leaves every port; its last stage, reported after, still reads the rate (and the half share) it had
        s.changed(new PortChanges(3, List.of(), Set.of(nicH3, toH2)), 40_000);
        assertEquals(new Observation(10_000, 4_000, 0.5, 10_000_000, Observation.Signal.LINK_BYTES),
                s.observation("a", stage(40_000, 10_000, 16_000, 0, 5_000_000L)));
    }

    @Test
    void theFabricsCountOnTheApplicationsOwnQueueIsItsLinkBytesWhereTheEngineReportedFewer() {
        TopologyResolver topology = testbed();
        PortId toH2 = topology.path("h3", "h2").get(1);
        AppShares s = new AppShares(topology::capacityGbps);
        // levels 1 and 2 in queues 1 and 2, the default level in queue 0; c at level 3 shares b's queue
        s.changed(changed(new PortAllocation(toH2, Map.of(0, 0, 1, 1, 2, 2, 3, 2), new double[] {0, 0.5, 0.5},
                Map.of("a", 0.5, "b", 0.25, "c", 0.25))), 0);
        Map<String, Integer> levels = Map.of("a", 1, "b", 2, "c", 3, "d", 0);
        java.util.function.ToIntFunction<String> levelOf = id -> levels.getOrDefault(id, -1);
        assertEquals(Map.of(toH2, 1), s.ownQueues("a", levelOf));
        assertEquals(Map.of(), s.ownQueues("b", levelOf), "its queue also carries c");
        assertEquals(Map.of(), s.ownQueues("d", levelOf), "the default level's queue carries every level-0 application");
        assertEquals(Map.of(), s.ownQueues("z", levelOf), "unknown");
        assertEquals(Set.of(toH2), s.ports());

        // a's stage reported 2.5 MB into its busiest host, 1 s of the 20 Mbit/s link; the fabric counted 5 MB there
        // (broadcasts, cached blocks, headers): 2 s of the full link, 4 s at the half share it had
        Observation counted = s.observation("a", stage(10_000, 10_000, 16_000, 1_000, 2_500_000L), 5_000_000L);
        assertEquals(new Observation(10_000, 4_000, 0.5, 10_000_000, Observation.Signal.LINK_BYTES), counted);
        assertEquals(s.observation("a", stage(10_000, 10_000, 16_000, 1_000, 2_500_000L)),
                s.observation("a", stage(10_000, 10_000, 16_000, 1_000, 2_500_000L), 1_000_000L),
                "fewer counted than reported (a queue shared for part of the stage): the reported bytes hold");
        assertEquals(new Observation(10_000, 4_000, 0.5, 10_000_000, Observation.Signal.LINK_BYTES),
                s.observation("a", stage(10_000, 10_000, 16_000, 1_000, null), 5_000_000L),
                "an engine that reports no host bytes: the count alone");
    }

    @Test
    void withoutARateTheWaitIsTheSignal() {
        AppShares s = new AppShares(NO_RATES);
        s.changed(changed(port(S1, Map.of("a", 0.9))), 0);
        assertTrue(Double.isNaN(s.linkGbps("a")));
        assertEquals(new Observation(16_000, 1_000, 1.0, 10_000_000), s.observation("a",
                stage(10_000, 10_000, 16_000, 1_000, 5_000_000L)), "bytes reported, but no rate to read them by");
    }
}
