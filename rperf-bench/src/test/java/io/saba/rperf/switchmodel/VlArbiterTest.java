package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VlArbiterTest {
    private static List<Integer> serve(VlArbiter arb, boolean[] ready, int bytes, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int vl = arb.choose(ready);
            arb.charge(bytes);
            out.add(vl);
        }
        return out;
    }

    @Test
    void lowTableIsWeightedIn64ByteUnits() {
        // VL0 weight 1 (64 B), VL2 weight 2 (128 B): 64 B packets go 0, 2, 2, 0, 2, 2
        VlArbitration cfg = new VlArbitration(List.of(),
                List.of(new VlArbitration.Entry(0, 1), new VlArbitration.Entry(2, 2)), 0);
        boolean[] ready = {true, false, true};
        assertEquals(List.of(0, 2, 2, 0, 2, 2), serve(new VlArbiter(cfg), ready, 64, 6));
    }

    @Test
    void aPacketMayOverrunTheRemainingWeight() {
        // weight 1 = 64 B but a 4 KiB packet still goes: one packet per entry turn
        VlArbitration cfg = new VlArbitration(List.of(),
                List.of(new VlArbitration.Entry(0, 1), new VlArbitration.Entry(1, 1)), 0);
        assertEquals(List.of(0, 1, 0, 1), serve(new VlArbiter(cfg), new boolean[] {true, true}, 4096, 4));
    }

    @Test
    void highPriorityWinsUntilItsLimitThenLowGetsOnePacket() {
        boolean[] both = {true, true};
        // limit 0: one high packet, then one low
        assertEquals(List.of(1, 0, 1, 0), serve(new VlArbiter(VlArbitration.latencyVlHigh(0)), both, 256, 4));
        // limit 1 = 4096 B: sixteen 256 B high packets, then one low
        List<Integer> seq = serve(new VlArbiter(VlArbitration.latencyVlHigh(1)), both, 256, 18);
        assertEquals(16, seq.subList(0, 16).stream().filter(v -> v == 1).count());
        assertEquals(0, seq.get(16));
        assertEquals(1, seq.get(17));
        // unlimited: low never goes while high is ready
        assertEquals(List.of(1, 1, 1, 1, 1),
                serve(new VlArbiter(VlArbitration.latencyVlHigh(VlArbitration.UNLIMITED)), both, 4096, 5));
    }

    @Test
    void lowGoesWheneverHighHasNothing() {
        VlArbiter arb = new VlArbiter(VlArbitration.latencyVlHigh(VlArbitration.UNLIMITED));
        assertEquals(0, arb.choose(new boolean[] {true, false}));
        assertEquals(-1, arb.choose(new boolean[] {false, false}));
    }

    @Test
    void weightsOutsideTheIbRangeAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new VlArbitration.Entry(0, 256));
    }
}
