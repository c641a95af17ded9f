package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * InfiniBand congestion control on cases worked out by hand: one switch of five hosts, RR, one VL, default
 * parameters (4122 B on the wire per 4 KiB packet, 588.857 ns at 56 Gbit/s).
 *
 * <ul>
 *   <li><b>A lone flow</b> never fills a port's queue to the threshold (its packets wait only the 200 ns
 *       port-to-port latency), so nothing is marked and it finishes at the same picosecond with congestion control
 *       on or off.</li>
 *   <li><b>A hot spot and a victim.</b> h0, h3 and h4 each send 4 MiB to h1; h0 also sends 4 MiB to h2. h1's port
 *       serves its three inputs in turn, one h0 packet per three packet times. h0's NIC alternates its two queue
 *       pairs, so h0's input buffer holds h1, h2, h1, h2, …, and without congestion control an h2 packet leaves only
 *       after the h1 packet ahead of it: h0 → h2 moves at h0 → h1's pace, 18.55 Gbit/s, and takes 1.81 ms though its
 *       own port is idle two thirds of the time. With congestion control h1's port marks, h0 → h1 is throttled at
 *       its source, fewer h1 packets stand in h0's buffer, and h0 → h2 gets the link they leave: 37.1 Gbit/s, 0.90 ms,
 *       what max-min gives it, while h1's port loses a few per cent to the throttling (it idles when all three
 *       sources wait out their delays at once).</li>
 * </ul>
 */
class CongestionControlTest {
    static final ModelParams P = ModelParams.paperDefaults();
    static final long MESSAGE = 4L << 20;
    /** 4 MiB at one packet per three packet times. */
    static final double HOL_PACED_SECONDS = MESSAGE / 4096.0 * 3 * 588.857e-9;
    /** 4 MiB at two packets per three packet times: what max-min gives the victim. */
    static final double MAX_MIN_VICTIM_SECONDS = MESSAGE / 4096.0 * 1.5 * 588.857e-9;
    /** The hot port's 12 MiB back to back. */
    static final double HOT_PORT_SECONDS = 3 * MESSAGE / 4096.0 * 588.857e-9;

    /** Each {src, dst}: one 4 MiB message. */
    private static OneSwitchRun run(CongestionControl cc, List<int[]> flows) {
        return OneSwitchRun.run(P, cc, flows.stream().map(f -> new int[] {f[0], f[1], 1, (int) (MESSAGE / 4096)})
                .toList());
    }

    @Test
    void aLoneFlowIsNeverMarkedAndFinishesAtTheSameTime() {
        List<int[]> lone = List.of(new int[] {0, 2});
        OneSwitchRun off = run(null, lone);
        OneSwitchRun on = run(CongestionControl.defaults(), lone);
        assertEquals(0, on.marked());
        assertEquals(off.done().get("0->2"), on.done().get("0->2"));
        assertEquals(MESSAGE / 4096.0 * 588.857e-9, on.done().get("0->2"), 0.01e-3, "at line rate");
    }

    @Test
    void congestionControlFreesTheVictimOfAHotSpot() {
        List<int[]> flows = List.of(new int[] {0, 1}, new int[] {3, 1}, new int[] {4, 1}, new int[] {0, 2});
        OneSwitchRun off = run(null, flows);
        OneSwitchRun on = run(CongestionControl.defaults(), flows);
        assertEquals(HOL_PACED_SECONDS, off.done().get("0->2"), 0.03 * HOL_PACED_SECONDS,
                "without it the victim moves at the hot flow's pace");
        assertEquals(0, off.marked());
        assertTrue(on.marked() > 0, "the hot port marks");
        assertEquals(MAX_MIN_VICTIM_SECONDS, on.done().get("0->2"), 0.05 * MAX_MIN_VICTIM_SECONDS,
                "with it the victim gets the two thirds of h0's link the hot flow does not need");
        double lastHot = Math.max(on.done().get("0->1"), Math.max(on.done().get("3->1"), on.done().get("4->1")));
        assertEquals(HOT_PORT_SECONDS, lastHot, 0.10 * HOT_PORT_SECONDS, "the hot port stays busy");
    }
}
