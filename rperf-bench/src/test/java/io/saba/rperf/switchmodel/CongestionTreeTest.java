package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Head-of-line blocking through credits, on a case worked out by hand. Two leaves of four hosts, one spine, RR
 * arbitration, default parameters (4122 B packets, 588.857 ns each at 56 Gbps).
 *
 * <ul>
 *   <li>Application A (SL 1) congests host x = h4: a1 = h0 sends to it from the other leaf, a3 = h6 and a4 = h7 from
 *       x's own leaf, all saturating. x's downlink serves its three inputs in turn, so a1's packets leave leaf 1 at
 *       one per 3 × 588.857 ns (18.55 Gbps of payload).</li>
 *   <li>Application B (SL 2) is a saturating flow from b1 = h1 to b2 = h5. It never crosses x's downlink; it shares
 *       only the path leaf 0 → spine → leaf 1 with a1.</li>
 * </ul>
 *
 * <p><b>One VL (the baseline).</b> The leaf 0 uplink alternates a1 and b1 (round robin between two full input
 * buffers), so the buffer at leaf 1's spine port holds A, B, A, B, … A packet at its head waits for its turn at x;
 * the B behind it leaves only once that A has gone. B therefore moves one packet per A packet: 18.55 Gbps, though
 * its own path could carry twice that. Credits carry the wait upstream: the spine and leaf 0 stop sending when the
 * buffer ahead is full.
 *
 * <p><b>One VL per application, equal weights.</b> A's packets fill A's buffers only; B's have their own credits.
 * The link from the spine carries one A packet per 3 packet times (all x's port takes), B the other two: B gets
 * 2 / 3 of the link, 37.10 Gbps, what ideal max-min gives it; A keeps its 18.55.
 */
class CongestionTreeTest {
    static final ModelParams P = ModelParams.paperDefaults();
    static final double CYCLE_NS = 3 * 588.857;
    static final double ONE_PER_CYCLE_GBPS = 4096 * 8 / CYCLE_NS;  // 18.549
    static final long WARM = 100 * ModelParams.PS_PER_US;
    static final long WINDOW = 3000 * 1766571L;                    // 3,000 cycles

    private record Rates(double victim, double remoteA, double localA, long leaf0UplinkStalls) {
    }

    private static Rates run(boolean vlPerApplication) {
        LeafSpine.Fabric f = new LeafSpine(2, 4, 1).build(P, Policy.RR, 3);
        if (vlPerApplication) {
            int[] sl2vl = new int[16];
            sl2vl[1] = 1;
            sl2vl[2] = 2;
            VlArbitration equal = new VlArbitration(List.of(),
                    List.of(new VlArbitration.Entry(1, 64), new VlArbitration.Entry(2, 64)), 0);
            configureEveryPort(f, sl2vl, equal);
        }
        Network net = f.network();
        List<HostNode> h = f.hosts();
        BandwidthGenerator a1 = net.addBsg("a1", h.get(0), h.get(4), 1, 4096, 0);
        BandwidthGenerator a3 = net.addBsg("a3", h.get(6), h.get(4), 1, 4096, 0);
        net.addBsg("a4", h.get(7), h.get(4), 1, 4096, 0);
        BandwidthGenerator b = net.addBsg("b", h.get(1), h.get(5), 2, 4096, 0);
        Measurements m = net.run(WARM, WARM + WINDOW);
        double ns = WINDOW / 1000.0;
        return new Rates(m.deliveredBytes(b.flow()) * 8 / ns, m.deliveredBytes(a1.flow()) * 8 / ns,
                m.deliveredBytes(a3.flow()) * 8 / ns, f.leaves().get(0).output(4).creditStalls);
    }

    private static void configureEveryPort(LeafSpine.Fabric f, int[] sl2vl, VlArbitration arb) {
        LeafSpine s = f.shape();
        for (int src = 0; src < s.hosts(); src++) {
            for (int dst = 0; dst < s.hosts(); dst++) {
                for (LeafSpine.Hop hop : s.path(src, dst)) {
                    f.configurePort(hop, sl2vl, arb);
                }
            }
        }
    }

    @Test
    void oneSharedVlSlowsTheVictimToTheCongestedFlowsPace() {
        Rates r = run(false);
        assertEquals(ONE_PER_CYCLE_GBPS, r.remoteA(), 0.01 * ONE_PER_CYCLE_GBPS);
        assertEquals(ONE_PER_CYCLE_GBPS, r.localA(), 0.01 * ONE_PER_CYCLE_GBPS);
        assertEquals(ONE_PER_CYCLE_GBPS, r.victim(), 0.01 * ONE_PER_CYCLE_GBPS);
        assertTrue(r.leaf0UplinkStalls() > 0, "the wait reaches leaf 0 as missing credits");
    }

    @Test
    void aVlPerApplicationLetsTheVictimUseWhatItsPathHasLeft() {
        Rates r = run(true);
        assertEquals(ONE_PER_CYCLE_GBPS, r.remoteA(), 0.01 * ONE_PER_CYCLE_GBPS);
        assertEquals(ONE_PER_CYCLE_GBPS, r.localA(), 0.01 * ONE_PER_CYCLE_GBPS);
        assertEquals(2 * ONE_PER_CYCLE_GBPS, r.victim(), 0.01 * 2 * ONE_PER_CYCLE_GBPS);
    }

    /**
     * The same victim as a finite message on a queue pair, posted once A has filled the fabric: 4 MiB (1,024
     * packets) from b1 to b2. On one VL its first packet enters behind the 14 A packets of the two full buffers
     * ahead (7 each at the spine and at leaf 1), which leave one per cycle, then one B leaves per cycle: 1,024 + 14
     * cycles. With its own VL nothing is ahead of it: one trip across the fabric (4 serialisations, 3 switch
     * latencies), then two packets per cycle: 512 cycles. Both within one cycle.
     */
    @Test
    void aMessageOfTheVictimTakesTwiceAsLongOnTheSharedVl() {
        double shared = victimMessageUs(false);
        double own = victimMessageUs(true);
        double cycleUs = CYCLE_NS / 1000;
        assertEquals((1024 + 14) * cycleUs, shared, cycleUs);
        double trip = (4 * 588.857 + 3 * 200) / 1000;
        assertEquals(512 * cycleUs + trip, own, cycleUs);
    }

    private static double victimMessageUs(boolean vlPerApplication) {
        LeafSpine.Fabric f = new LeafSpine(2, 4, 1).build(P, Policy.RR, 3);
        if (vlPerApplication) {
            int[] sl2vl = new int[16];
            sl2vl[1] = 1;
            sl2vl[2] = 2;
            configureEveryPort(f, sl2vl, new VlArbitration(List.of(),
                    List.of(new VlArbitration.Entry(1, 64), new VlArbitration.Entry(2, 64)), 0));
        }
        Network net = f.network();
        List<HostNode> h = f.hosts();
        net.addBsg("a1", h.get(0), h.get(4), 1, 4096, 0);
        net.addBsg("a3", h.get(6), h.get(4), 1, 4096, 0);
        net.addBsg("a4", h.get(7), h.get(4), 1, 4096, 0);
        QueuePair b = net.addQueuePair("b", h.get(1), h.get(5), 2);
        long[] got = {0};
        long[] done = {-1};
        net.onDelivery((p, t) -> {
            if (p.flow() == b.flow() && (got[0] += p.payloadBytes()) == 4L << 20) {
                done[0] = t;
            }
        });
        net.schedule(WARM, () -> b.post(4L << 20));
        net.run(0, WARM + 4000 * 1766571L);
        assertTrue(done[0] > 0, "the message arrived");
        return (done[0] - WARM) / 1e6;
    }
}
