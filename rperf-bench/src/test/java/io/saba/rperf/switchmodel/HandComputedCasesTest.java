package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Small cases worked out by hand from the defaults: 56 Gbps links, 26 B data header, 30 B ACK, 200 ns
 * port-to-port, no propagation, instant credits. Serialization: 90 B (64 B payload) = 12 857 ps, 30 B ACK
 * = 4 286 ps, 4122 B (4096 B payload) = 588 857 ps.
 */
class HandComputedCasesTest {
    static final ModelParams P = ModelParams.paperDefaults();
    static final long SER_64 = 12_857;
    static final long SER_ACK = 4_286;
    static final long SER_4K = 588_857;
    static final long LAT = 200_000;

    @Test
    void serializationMatchesTheHandNumbers() {
        assertEquals(SER_64, P.serializationPs(P.dataWireBytes(64)));
        assertEquals(SER_ACK, P.serializationPs(P.ackBytes()));
        assertEquals(SER_4K, P.serializationPs(P.dataWireBytes(4096)));
    }

    /** One LSG alone through one switch: RTT = 2 x (ser + 200 ns + ser) for data and ACK. */
    @Test
    void singleLatencyFlowRoundTripIsSerializationPlusSwitchLatency() {
        Network net = Network.singleVl(P);
        HostNode dst = net.addHost("dst", null);
        HostNode src = net.addHost("src", null);
        SwitchNode sw = net.addSwitch("sw", 2, Policy.FCFS, null);
        net.link(dst, 0, sw, 0);
        net.link(src, 0, sw, 1);
        sw.route(dst.hostId, 0).route(src.hostId, 1);
        LatencyGenerator lsg = net.addLsg("lsg", src, dst, 0, 64);
        Measurements s = net.run(0, 100 * ModelParams.PS_PER_US);

        long expected = 2 * SER_64 + LAT + 2 * SER_ACK + LAT; // 434 286 ps
        Histogram h = s.rtt(lsg.flow());
        assertTrue(h.getTotalCount() > 200, "closed loop keeps posting");
        assertTrue(h.valuesAreEquivalent(h.getMinValue(), expected), "min " + h.getMinValue());
        assertTrue(h.valuesAreEquivalent(h.getMaxValue(), expected), "max " + h.getMaxValue());
        // 100 us / 434.286 ns = 230.26 round trips, all complete but the last
        assertEquals(230, h.getTotalCount());
    }

    /** One saturating BSG: the link carries back-to-back 4122 B packets, goodput 4096/4122 x 56 Gbps. */
    /**
     * The LSG's wait at each switch of a line of two (src, s1, s2, dst): alone it never waits (0 ps at both, two
     * switches recorded per packet); with a 4 KiB BSG saturating s2's output from s2's other input, under FCFS it
     * still passes s1 at once and waits at s2 behind the BSG's packets that arrived first: more than nothing, at most
     * the 7 whole packets that fit in that input's 32 KiB buffer plus the one on the wire (8 x 588 857 ps).
     */
    @Test
    void latencyPacketsKeepTheirWaitAtEachSwitch() {
        Measurements alone = lineOfTwoSwitches(false);
        assertEquals(2, alone.switchWaits(0).size());
        for (Histogram h : alone.switchWaits(0)) {
            assertTrue(h.getTotalCount() > 0);
            assertEquals(0, h.getMaxValue(), "an LSG alone waits nowhere");
        }
        Measurements behind = lineOfTwoSwitches(true);
        List<Histogram> waits = behind.switchWaits(0);
        assertEquals(2, waits.size());
        assertEquals(0, waits.get(0).getMaxValue(), "s1 carries the LSG alone");
        assertTrue(waits.get(1).getValueAtPercentile(50) > 0, "s2 is saturated by the BSG");
        assertTrue(waits.get(1).getMaxValue() <= 8 * SER_4K * 1.001, "at most a buffer and a packet on the wire: "
                + waits.get(1).getMaxValue());
        assertTrue(behind.switchWaits(1).isEmpty(), "a BSG's packets carry no waits");
    }

    /** src -> s1 -> s2 -> dst with an LSG (flow 0), and optionally a BSG (flow 1) from another host into s2. */
    private static Measurements lineOfTwoSwitches(boolean withBsg) {
        Network net = Network.singleVl(P);
        HostNode dst = net.addHost("dst", null);
        HostNode src = net.addHost("src", null);
        HostNode other = net.addHost("other", null);
        SwitchNode s1 = net.addSwitch("s1", 2, Policy.FCFS, null);
        SwitchNode s2 = net.addSwitch("s2", 3, Policy.FCFS, null);
        net.link(src, 0, s1, 0);
        net.link(s1, 1, s2, 0);
        net.link(dst, 0, s2, 1);
        net.link(other, 0, s2, 2);
        s1.route(dst.hostId, 1).route(src.hostId, 0).route(other.hostId, 1);
        s2.route(dst.hostId, 1).route(src.hostId, 0).route(other.hostId, 2);
        net.addLsg("lsg", src, dst, 0, 64);
        if (withBsg) {
            net.addBsg("bsg", other, dst, 0, 4096, 0);
        }
        return net.run(10 * ModelParams.PS_PER_US, 200 * ModelParams.PS_PER_US);
    }

    @Test
    void singleBandwidthFlowRunsAtLineRate() {
        Network net = Network.singleVl(P);
        HostNode dst = net.addHost("dst", null);
        HostNode src = net.addHost("src", null);
        SwitchNode sw = net.addSwitch("sw", 2, Policy.FCFS, null);
        net.link(dst, 0, sw, 0);
        net.link(src, 0, sw, 1);
        sw.route(dst.hostId, 0).route(src.hostId, 1);
        BandwidthGenerator bsg = net.addBsg("bsg", src, dst, 0, 4096, 0);
        long warm = 10 * ModelParams.PS_PER_US;
        long window = SER_4K * 1000; // exactly 1000 packet times
        Measurements s = net.run(warm, warm + window);
        assertEquals(1000, s.deliveredPackets(bsg.flow()), 1);
    }

    /** A switch fed by hand: packets A (port 1, t=0), B (port 1, t=1 ns), C (port 2, t=2 ns), all to port 0. */
    private List<String> departureOrder(Policy policy, List<Long> times) {
        Network net = Network.singleVl(P);
        HostNode dst = net.addHost("dst", null);
        SwitchNode sw = net.addSwitch("sw", 3, policy, null);
        net.link(dst, 0, sw, 0);
        sw.route(dst.hostId, 0).route(9, 1); // ACKs to the unconnected port 1 just wait there
        List<String> order = new ArrayList<>();
        net.onDelivery((p, t) -> {
            order.add(p.flow() == 1 ? (p.id() == 0 ? "A" : "B") : "C");
            times.add(t);
        });
        Packet a = net.newPacket(Packet.Kind.DATA, 1, 9, dst.hostId, 0, 4096, 4122, 0);
        Packet b = net.newPacket(Packet.Kind.DATA, 1, 9, dst.hostId, 0, 4096, 4122, 0);
        Packet c = net.newPacket(Packet.Kind.DATA, 2, 9, dst.hostId, 0, 4096, 4122, 0);
        net.clock().at(0, () -> sw.receive(a, 1, 0));
        net.clock().at(1_000, () -> sw.receive(b, 1, 1_000));
        net.clock().at(2_000, () -> sw.receive(c, 2, 2_000));
        net.clock().runUntil(10 * ModelParams.PS_PER_US);
        return order;
    }

    @Test
    void fcfsServesInArrivalOrder() {
        List<Long> t = new ArrayList<>();
        assertEquals(List.of("A", "B", "C"), departureOrder(Policy.FCFS, t));
        // A eligible at 200 ns; then back to back.
        assertEquals(List.of(LAT + SER_4K, LAT + 2 * SER_4K, LAT + 3 * SER_4K), t);
    }

    @Test
    void roundRobinTakesTheOtherInputBeforeTheSameOneAgain() {
        List<Long> t = new ArrayList<>();
        assertEquals(List.of("A", "C", "B"), departureOrder(Policy.RR, t));
        assertEquals(List.of(LAT + SER_4K, LAT + 2 * SER_4K, LAT + 3 * SER_4K), t);
    }

    /** Two saturating BSGs on one output: round-robin alternates strictly, FCFS shares evenly. */
    @Test
    void twoSaturatingFlowsShareTheOutput() {
        for (Policy policy : Policy.values()) {
            MixedTrafficResult r = new MixedTrafficExperiment(MixedTrafficConfig.converged(2, policy)
                    .withTiming(100 * ModelParams.PS_PER_US, 1_000 * ModelParams.PS_PER_US)).run();
            double half = 56.0 * 4096 / 4122 / 2; // 27.82 Gbps, less the LSG's few bytes
            for (MixedTrafficResult.Flow f : r.bandwidth()) {
                assertEquals(half, f.gbps(), 0.02 * half, policy + " " + f);
            }
        }
        Network net = Network.singleVl(P);
        HostNode dst = net.addHost("dst", null);
        SwitchNode sw = net.addSwitch("sw", 3, Policy.RR, null);
        net.link(dst, 0, sw, 0);
        sw.route(dst.hostId, 0);
        for (int i = 1; i <= 2; i++) {
            HostNode h = net.addHost("h" + i, null);
            net.link(h, 0, sw, i);
            sw.route(h.hostId, i);
            net.addBsg("b" + i, h, dst, 0, 4096, 0);
        }
        List<Integer> flows = new ArrayList<>();
        net.onDelivery((p, t) -> flows.add(p.flow()));
        net.run(0, 200 * ModelParams.PS_PER_US);
        for (int i = 1; i < flows.size(); i++) {
            assertTrue(!flows.get(i).equals(flows.get(i - 1)), "RR alternates: " + flows);
        }
    }

    /**
     * Credit stall: an input buffer of one packet makes the sender wait for the credit each time, so a
     * packet leaves the host every ser + 200 ns (the credit comes back when the packet leaves the buffer);
     * with room for two packets the link is never idle.
     */
    @Test
    void fullBufferStallsTheSenderUntilCreditsReturn() {
        assertEquals(1000.0 * SER_4K / (SER_4K + LAT), packetsIn(4122, 1000 * SER_4K), 1.0);
        assertEquals(1000.0, packetsIn(2 * 4122, 1000 * SER_4K), 1.0);
    }

    private long packetsIn(int bufferBytes, long window) {
        Network net = Network.singleVl(P.withBufferBytes(bufferBytes));
        HostNode dst = net.addHost("dst", null);
        HostNode src = net.addHost("src", null);
        SwitchNode sw = net.addSwitch("sw", 2, Policy.FCFS, null);
        net.link(dst, 0, sw, 0);
        net.link(src, 0, sw, 1);
        sw.route(dst.hostId, 0).route(src.hostId, 1);
        BandwidthGenerator bsg = net.addBsg("bsg", src, dst, 0, 4096, 0);
        long warm = 20 * ModelParams.PS_PER_US;
        Measurements s = net.run(warm, warm + window);
        if (bufferBytes < 2 * 4122) {
            assertTrue(src.output(0).creditStalls > 0, "the host had a packet ready but no credits");
            assertTrue(sw.buffer(1, 0).usedBytes() <= bufferBytes);
        }
        return s.deliveredPackets(bsg.flow());
    }
}
