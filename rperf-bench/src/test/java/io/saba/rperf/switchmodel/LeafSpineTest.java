package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The leaf-spine builder: its D-mod-K routes, and a finite all-to-all that drains completely. */
class LeafSpineTest {
    static final ModelParams P = ModelParams.paperDefaults();
    static final long SER_4K = 588_857;
    static final long LAT = 200_000;

    @Test
    void pathsGoUpToTheDestinationsSpineAndStayOnTheLeafWhenTheyCan() {
        LeafSpine f = new LeafSpine(3, 4, 2); // 2:1
        assertEquals(12, f.hosts());
        assertEquals(List.of(new LeafSpine.Hop("h1", 0), new LeafSpine.Hop("leaf0", 3)), f.path(1, 3));
        // h9 on leaf 2, 9 mod 2 = spine 1 (leaf port 4 + 1), spine port 2 down to leaf 2, leaf port 9 mod 4 = 1
        assertEquals(List.of(new LeafSpine.Hop("h1", 0), new LeafSpine.Hop("leaf0", 5),
                new LeafSpine.Hop("spine1", 2), new LeafSpine.Hop("leaf2", 1)), f.path(1, 9));
        assertEquals(List.of(), f.path(5, 5));
        assertEquals(3, LeafSpine.oversubscribed(6, 6, 3).hostsPerLeaf() / LeafSpine.oversubscribed(6, 6, 3).spines());
        assertThrows(IllegalArgumentException.class, () -> LeafSpine.oversubscribed(6, 6, 4));
        assertThrows(IllegalArgumentException.class, () -> f.path(0, 12));
        List<LeafSpine.Tier> tiers = new ArrayList<>();
        f.path(1, 9).forEach(h -> tiers.add(f.tierOf(h)));
        assertEquals(List.of(LeafSpine.Tier.NIC, LeafSpine.Tier.LEAF_UP, LeafSpine.Tier.SPINE_DOWN,
                LeafSpine.Tier.LEAF_DOWN), tiers);
    }

    /** Every destination is reached through exactly one spine, and the spines share the destinations evenly. */
    @Test
    void dModKSpreadsDestinationsEvenlyOverTheSpines() {
        LeafSpine f = new LeafSpine(6, 6, 3);
        Map<String, Integer> perSpine = new HashMap<>();
        for (int dst = 0; dst < f.hosts(); dst++) {
            String spine = null;
            for (int src = 0; src < f.hosts(); src++) {
                if (f.leafOf(src) != f.leafOf(dst)) {
                    String s = f.path(src, dst).get(2).node();
                    assertEquals(spine == null ? s : spine, s, "one spine per destination");
                    spine = s;
                }
            }
            perSpine.merge(spine, 1, Integer::sum);
        }
        assertEquals(Map.of("spine0", 12, "spine1", 12, "spine2", 12), perSpine);
    }

    /**
     * One 4 KiB packet alone: across leaves it is serialised on 4 links and waits 3 port-to-port latencies; on one
     * leaf 2 and 1. Every packet of an all-to-all arrives and the buffers drain.
     */
    @Test
    void packetsCrossTheFabricInTheHandComputedTimeAndAllArrive() {
        LeafSpine shape = new LeafSpine(2, 2, 2);
        assertEquals(4 * SER_4K + 3 * LAT, oneMessage(shape, 0, 3));
        assertEquals(2 * SER_4K + LAT, oneMessage(shape, 0, 1));

        LeafSpine.Fabric f = new LeafSpine(3, 3, 3).build(P, Policy.RR, 1);
        int hosts = f.shape().hosts();
        long[] received = new long[hosts];
        f.network().onDelivery((p, t) -> received[p.dstHost()] += p.payloadBytes());
        List<QueuePair> qps = new ArrayList<>();
        for (int s = 0; s < hosts; s++) {
            for (int d = 0; d < hosts; d++) {
                if (s != d) {
                    qps.add(f.network().addQueuePair("q" + s + "-" + d, f.hosts().get(s), f.hosts().get(d), 0));
                }
            }
        }
        f.network().schedule(0, () -> qps.forEach(q -> q.post(10_000)));
        f.network().runToIdle();
        for (int h = 0; h < hosts; h++) {
            assertEquals(10_000L * (hosts - 1), received[h], "h" + h);
        }
        assertEquals(0, f.network().bufferedBytes());
    }

    private static long oneMessage(LeafSpine shape, int src, int dst) {
        LeafSpine.Fabric f = shape.build(P, Policy.FCFS, 1);
        long[] at = {-1};
        f.network().onDelivery((p, t) -> at[0] = t);
        QueuePair q = f.network().addQueuePair("q", f.hosts().get(src), f.hosts().get(dst), 0);
        f.network().schedule(0, () -> q.post(4096));
        f.network().runToIdle();
        return at[0];
    }
}
