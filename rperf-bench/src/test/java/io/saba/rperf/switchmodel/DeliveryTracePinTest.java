package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the engine's output packet by packet: every data packet delivered in a few fixed runs, with its id, flow and
 * delivery time in picoseconds, folded into one checksum, beside the count and the last delivery time. The values
 * were taken from the straightforward engine (a priority queue of boxed events); any change to how the engine
 * schedules, arbitrates or allocates must leave them exactly as they are, or it has changed the results.
 *
 * <p>The runs cover what the engine does: round robin and FCFS, one VL and several with weighted VL arbitration,
 * credit delay, queue pairs posting finite messages in rounds (with ACKs on the reverse path), saturating
 * senders, and latency probes.
 */
class DeliveryTracePinTest {
    static final ModelParams P = ModelParams.paperDefaults().withCreditDelayPs(50_000);

    /** Every delivery folded in order: id, flow and time of each packet. */
    private static final class Trace implements Network.DeliveryListener {
        long count;
        long hash = 1;
        long last;

        @Override
        public void delivered(Packet p, long now) {
            count++;
            last = now;
            hash = 31 * hash + p.id();
            hash = 31 * hash + p.flow();
            hash = 31 * hash + now;
        }

        @Override
        public String toString() {
            return count + " packets, last at " + last + " ps, checksum " + hash;
        }
    }

    /**
     * 3 leaves × 4 hosts, 2 spines; 12 queue pairs in 3 groups on SLs 1–3, each posting three rounds of messages of
     * 37,000 B (a partial last packet), the next round when the group's previous one has arrived.
     */
    private static String rounds(Policy policy, boolean vlPerGroup) {
        LeafSpine.Fabric f = new LeafSpine(3, 4, 2).build(P, policy, 4);
        if (vlPerGroup) {
            int[] sl2vl = new int[16];
            for (int sl = 1; sl <= 3; sl++) {
                sl2vl[sl] = sl;
            }
            VlArbitration arb = new VlArbitration(List.of(new VlArbitration.Entry(3, 16)),
                    List.of(new VlArbitration.Entry(1, 64), new VlArbitration.Entry(2, 32),
                            new VlArbitration.Entry(3, 8)), 2);
            for (HostNode h : f.hosts()) {
                h.configurePort(sl2vl, arb);
            }
            for (SwitchNode s : f.leaves()) {
                for (int p = 0; p < s.outputs.size(); p++) {
                    s.configurePort(p, sl2vl, arb);
                }
            }
            for (SwitchNode s : f.spines()) {
                for (int p = 0; p < s.outputs.size(); p++) {
                    s.configurePort(p, sl2vl, arb);
                }
            }
        }
        Network net = f.network();
        List<HostNode> h = f.hosts();
        int[][] groups = {{0, 5, 9, 2}, {1, 4, 8, 11}, {3, 6, 7, 10}};
        Trace trace = new Trace();
        long[] left = new long[groups.length];
        int[] round = new int[groups.length];
        QueuePair[][] qps = new QueuePair[groups.length][];
        for (int g = 0; g < groups.length; g++) {
            int[] m = groups[g];
            qps[g] = new QueuePair[m.length];
            for (int i = 0; i < m.length; i++) {
                qps[g][i] = net.addQueuePair("g" + g + ":" + i, h.get(m[i]), h.get(m[(i + 1) % m.length]), g + 1);
            }
        }
        long bytes = 37_000;
        net.onDelivery((p, now) -> {
            trace.delivered(p, now);
            int g = p.flow() / 4;
            left[g] -= p.payloadBytes();
            if (left[g] == 0 && ++round[g] < 3) {
                int gg = g;
                net.schedule(now + 1_000_000L * (g + 1), () -> post(qps[gg], left, gg, bytes));
            }
        });
        for (int g = 0; g < groups.length; g++) {
            int gg = g;
            net.schedule(250_000L * g, () -> post(qps[gg], left, gg, bytes * (gg + 1)));
        }
        net.runToIdle();
        assertEquals(0, net.bufferedBytes());
        return trace.toString();
    }

    private static void post(QueuePair[] qps, long[] left, int g, long bytes) {
        for (QueuePair q : qps) {
            left[g] += bytes;
            q.post(bytes);
        }
    }

    @Test
    void roundsOfQueuePairsRoundRobinOneVl() {
        assertEquals("468 packets, last at 61302574 ps, checksum 7188142178849715361",
                rounds(Policy.RR, false));
    }

    @Test
    void roundsOfQueuePairsRoundRobinWeightedVls() {
        assertEquals("468 packets, last at 57531721 ps, checksum -7916320494976167168",
                rounds(Policy.RR, true));
    }

    @Test
    void roundsOfQueuePairsFcfsOneVl() {
        assertEquals("468 packets, last at 51744005 ps, checksum -5781828214860890023",
                rounds(Policy.FCFS, false));
    }

    @Test
    void roundsOfQueuePairsFcfsWeightedVls() {
        assertEquals("468 packets, last at 57536007 ps, checksum -6190151586543429836",
                rounds(Policy.FCFS, true));
    }

    /** Saturating senders into one host beside a latency probe, on the RPerf paper's switch: a fixed window. */
    @Test
    void saturatingSendersBesideALatencyProbe() {
        Network net = Network.singleVl(ModelParams.paperDefaults());
        SwitchNode sw = net.addSwitch("sw", 4, Policy.FCFS, null);
        HostNode[] h = new HostNode[4];
        for (int i = 0; i < 4; i++) {
            h[i] = net.addHost("h" + i, null);
            net.link(h[i], 0, sw, i);
            sw.route(i, i);
        }
        net.addBsg("b0", h[0], h[3], 0, 4096, 0);
        net.addBsg("b1", h[1], h[3], 0, 1024, 100_000);
        LatencyGenerator lsg = net.addLsg("l", h[2], h[3], 0, 64);
        Trace trace = new Trace();
        net.onDelivery(trace::delivered);
        Measurements m = net.run(0, 200 * ModelParams.PS_PER_US);
        assertEquals("887 packets, last at 199599688 ps, checksum 2854764832413278327, 26 round trips, max 8937471",
                trace + ", " + m.rtt(lsg.flow()).getTotalCount() + " round trips, max " + m.rtt(lsg.flow()).getMaxValue());
    }
}
