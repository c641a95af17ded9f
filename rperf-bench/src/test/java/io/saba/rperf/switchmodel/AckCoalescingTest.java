package io.saba.rperf.switchmodel;

import static io.saba.rperf.switchmodel.OneSwitchRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ACK coalescing ({@link ModelParams#ackEvery}) on cases counted by hand: one switch of five hosts, RR, one VL, 4 KiB
 * packets.
 *
 * <ul>
 *   <li>A queue pair asks for an ACK on every k-th packet and on its message's last one, the count starting over
 *       after each: a 4 MiB message (1,024 packets) gets 1,024 ACKs at k = 1 and 4 at k = 256 (packets 256, 512,
 *       768, 1,024); two messages of 300 packets get 2 each at k = 256 (packets 256 and 300 of each).</li>
 *   <li>A lone flow's ACKs travel links its data does not use, so it finishes at the same picosecond at any k.</li>
 *   <li><b>An ACK holds up the data behind it.</b> h0 sends to h1, so h1 returns an ACK per packet to h0, whose port
 *       also serves h3 and h4 in turn; those ACKs wait in h1's input buffer for a third of h0's port, and h1's
 *       4 MiB to h2, whose port is idle, waits behind them: about five times its time at line rate (0.60 ms). With
 *       an ACK every 256 packets it runs at line rate. This is the head-of-line blocking an ACK per packet adds to a
 *       shared VL.</li>
 *   <li>A packet marked FECN is acknowledged at once whatever k is, so congestion control sees every mark: in the
 *       hot spot of {@link CongestionControlTest} with one ACK per message, every mark still comes back as a BECN
 *       and the victim still gets what max-min gives it.</li>
 * </ul>
 */
class AckCoalescingTest {
    @Test
    void aQueuePairAsksEveryKthPacketAndAtEachMessageEnd() {
        ModelParams p = ModelParams.paperDefaults();
        assertEquals(1024L, run(p, null, List.of(new int[] {0, 2, 1, 1024})).acks().get("0->2"));
        assertEquals(4L, run(p.withAckEvery(256), null, List.of(new int[] {0, 2, 1, 1024})).acks().get("0->2"));
        assertEquals(4L, run(p.withAckEvery(256), null, List.of(new int[] {0, 2, 2, 300})).acks().get("0->2"));
        assertEquals(1L, run(p.withAckEvery(1 << 30), null, List.of(new int[] {0, 2, 1, 1024})).acks().get("0->2"));
    }

    @Test
    void aLoneFlowFinishesAtTheSamePicosecondAtAnyK() {
        List<int[]> lone = List.of(new int[] {0, 2, 1, 1024});
        double perPacket = run(ModelParams.paperDefaults(), null, lone).done().get("0->2");
        for (int k : new int[] {16, 256, 1 << 30}) {
            assertEquals(perPacket, run(ModelParams.paperDefaults().withAckEvery(k), null, lone).done().get("0->2"),
                    "k = " + k);
        }
    }

    @Test
    void everyFecnMarkIsAcknowledgedAtOnce() {
        List<int[]> hotSpot = List.of(new int[] {0, 1, 1, 1024}, new int[] {3, 1, 1, 1024}, new int[] {4, 1, 1, 1024},
                new int[] {0, 2, 1, 1024});
        OneSwitchRun coalesced = run(ModelParams.paperDefaults().withAckEvery(1 << 30), CongestionControl.defaults(),
                hotSpot);
        assertTrue(coalesced.marked() > 0, "the hot port marks");
        long acks = coalesced.acks().values().stream().mapToLong(Long::longValue).sum();
        assertTrue(acks >= coalesced.marked() && acks <= coalesced.marked() + hotSpot.size(),
                "an ACK per mark and at most one per message besides: " + acks + " ACKs, " + coalesced.marked()
                        + " marks");
        assertEquals(CongestionControlTest.MAX_MIN_VICTIM_SECONDS, coalesced.done().get("0->2"),
                0.05 * CongestionControlTest.MAX_MIN_VICTIM_SECONDS, "congestion control still frees the victim");
    }

    @Test
    void anAckPerPacketHoldsUpDataBehindItAtTheSwitch() {
        // h0 → h1 makes h1 return an ACK per packet to h0, whose port h3 and h4 keep busy; h1 → h2 shares h1's
        // input buffer with those ACKs
        List<int[]> flows = List.of(new int[] {1, 2, 1, 1024}, new int[] {0, 1, 1, 2048}, new int[] {3, 0, 1, 2048},
                new int[] {4, 0, 1, 2048});
        double lineRate = 1024 * ModelParams.paperDefaults().serializationPs(4096 + 26) / 1e12;
        double perPacket = run(ModelParams.paperDefaults(), null, flows).done().get("1->2");
        double coalesced = run(ModelParams.paperDefaults().withAckEvery(256), null, flows).done().get("1->2");
        assertTrue(perPacket > 3 * lineRate, "h1 → h2 waits behind ACKs to the hot port: " + perPacket + " s");
        assertEquals(lineRate, coalesced, 0.01 * lineRate, "with ACKs coalesced h1 → h2 runs at line rate");
    }

    @Test
    void refusesFewerThanOnePacketPerAck() {
        assertThrows(IllegalArgumentException.class, () -> ModelParams.paperDefaults().withAckEvery(0));
    }
}
