package io.saba.harness.sim.sharing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SharingTest {
    private static final double INF = Double.POSITIVE_INFINITY;

    private static PortLoad link(double cap, int... groups) {
        double[] mult = new double[groups.length];
        Arrays.fill(mult, 1);
        return new PortLoad(cap, groups, mult, PortSchedule.oneQueue(groups.length));
    }

    @Test
    void waterFillGivesWeightsAndRedistributesWhatAClaimantLeaves() {
        assertArrayEquals(new double[] {75, 25}, WaterFill.fill(100, new double[] {3, 1}, new double[] {INF, INF}),
                1e-9);
        // the heavy claimant needs only 10: the other takes the rest (work conservation)
        assertArrayEquals(new double[] {10, 90}, WaterFill.fill(100, new double[] {3, 1}, new double[] {10, INF}),
                1e-9);
        assertArrayEquals(new double[] {10, 20}, WaterFill.fill(100, new double[] {1, 1}, new double[] {10, 20}),
                1e-9);
    }

    @Test
    void twoFlowsOnOneLinkGetTheirQueueWeights() {
        PortSchedule s = new PortSchedule().queue(0.7, 0).queue(0.3, 1);
        PortLoad p = new PortLoad(10, new int[] {0, 1}, new double[] {1, 1}, s);
        double[] r = PortFixedPointSharing.solve(new double[] {INF, INF}, List.of(p));
        assertArrayEquals(new double[] {7, 3}, r, 1e-9);
    }

    @Test
    void flowsInsideAQueueShareItPerFlow() {
        // queue 0 (weight 1/2) holds a group of 3 flows and a group of 1 flow; queue 1 holds 1 flow
        PortSchedule s = new PortSchedule().queue(0.5, 0, 1).queue(0.5, 2);
        PortLoad p = new PortLoad(8, new int[] {0, 1, 2}, new double[] {3, 1, 1}, s);
        double[] r = PortFixedPointSharing.solve(new double[] {INF, INF, INF}, List.of(p));
        assertArrayEquals(new double[] {1, 1, 4}, r, 1e-9);
    }

    @Test
    void strictPriorityServesTheFirstClassFirst() {
        PortSchedule s = new PortSchedule().newClass().queue(1, 0).newClass().queue(1, 1);
        PortLoad p = new PortLoad(10, new int[] {0, 1}, new double[] {1, 1}, s);
        assertArrayEquals(new double[] {10, 0}, PortFixedPointSharing.solve(new double[] {INF, INF}, List.of(p)),
                1e-9);
        assertArrayEquals(new double[] {4, 6}, PortFixedPointSharing.solve(new double[] {4, INF}, List.of(p)),
                1e-9);
    }

    @Test
    void maxMinOnAThreeLinkLineIsTheTextbookAnswer() {
        // f0 crosses all three links; f1 only link A (10), f2 and f3 only link B (8), f4 only link C (20).
        List<PortLoad> line = List.of(link(10, 0, 1), link(8, 0, 2, 3), link(20, 0, 4));
        double[] caps = {INF, INF, INF, INF, INF};
        double[] expected = {8.0 / 3, 10 - 8.0 / 3, 8.0 / 3, 8.0 / 3, 20 - 8.0 / 3};
        assertArrayEquals(expected, ProgressiveFilling.solve(caps, line), 1e-9);
        assertArrayEquals(expected, PortFixedPointSharing.solve(caps, line), 1e-7);
    }

    @Test
    void weightedProgressiveFillingSplitsByWeight() {
        double[] r = ProgressiveFilling.solve(new double[] {INF, INF}, new double[] {2, 1}, List.of(link(9, 0, 1)));
        assertArrayEquals(new double[] {6, 3}, r, 1e-9);
    }

    @Test
    void capsAreRespectedAndTheRestIsReused() {
        double[] r = ProgressiveFilling.solve(new double[] {1, INF}, List.of(link(10, 0, 1)));
        assertArrayEquals(new double[] {1, 9}, r, 1e-9);
    }

    @Test
    void fixedPointWithOneQueuePerPortEqualsProgressiveFillingOnRandomNetworks() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            int groups = 2 + rnd.nextInt(8);
            int ports = 1 + rnd.nextInt(8);
            List<List<Integer>> members = new ArrayList<>();
            for (int p = 0; p < ports; p++) {
                members.add(new ArrayList<>());
            }
            for (int g = 0; g < groups; g++) {
                int hops = 1 + rnd.nextInt(Math.min(3, ports));
                for (int h = 0; h < hops; h++) {
                    List<Integer> m = members.get(rnd.nextInt(ports));
                    if (!m.contains(g)) {
                        m.add(g);
                    }
                }
            }
            List<PortLoad> loads = new ArrayList<>();
            for (int p = 0; p < ports; p++) {
                List<Integer> m = members.get(p);
                if (m.isEmpty()) {
                    continue;
                }
                int[] gs = m.stream().mapToInt(Integer::intValue).toArray();
                double[] mult = new double[gs.length];
                for (int k = 0; k < mult.length; k++) {
                    mult[k] = 1 + rnd.nextInt(4);
                }
                loads.add(new PortLoad(1 + rnd.nextInt(20), gs, mult, PortSchedule.oneQueue(gs.length)));
            }
            double[] caps = new double[groups];
            for (int g = 0; g < groups; g++) {
                caps[g] = rnd.nextDouble() < 0.3 ? rnd.nextDouble() * 5 : INF;
            }
            double[] exact = ProgressiveFilling.solve(caps, loads);
            double[] fixed = PortFixedPointSharing.solve(caps, loads);
            for (int g = 0; g < groups; g++) {
                boolean onSomePort = false;
                for (PortLoad l : loads) {
                    for (int x : l.groups()) {
                        onSomePort |= x == g;
                    }
                }
                if (onSomePort || !Double.isInfinite(caps[g])) {
                    assertEquals(exact[g], fixed[g], 1e-6 * Math.max(1, exact[g]), "trial " + trial + " group " + g);
                }
            }
            // feasibility: no port is over capacity
            for (PortLoad l : loads) {
                double used = 0;
                for (int k = 0; k < l.groups().length; k++) {
                    used += l.multiplicity()[k] * fixed[l.groups()[k]];
                }
                assertTrue(used <= l.capacity() * (1 + 1e-9));
            }
        }
    }

    @Test
    void aFifoBufferMovesAllItsFlowsAtTheSlowestOnesPaceAndLeavesTheRestToOtherQueues() {
        // NIC port (cap 10): groups 0 and 1 in one FIFO queue, group 2 in another; group 0 is held to 1 elsewhere.
        PortSchedule fifo = new PortSchedule().queue(0.5, 0, 1).queue(0.5, 2).asFifoBuffers();
        PortLoad nic = new PortLoad(10, new int[] {0, 1, 2}, new double[] {1, 1, 1}, fifo);
        PortLoad elsewhere = new PortLoad(1, new int[] {0}, new double[] {1}, PortSchedule.oneQueue(1));
        double[] r = PortFixedPointSharing.solve(new double[] {INF, INF, INF}, List.of(nic, elsewhere));
        assertArrayEquals(new double[] {1, 1, 8}, r, 1e-9);
        // without head-of-line blocking group 1 would take what group 0 leaves in its queue
        PortSchedule plain = new PortSchedule().queue(0.5, 0, 1).queue(0.5, 2);
        double[] p = PortFixedPointSharing.solve(new double[] {INF, INF, INF},
                List.of(new PortLoad(10, new int[] {0, 1, 2}, new double[] {1, 1, 1}, plain), elsewhere));
        assertArrayEquals(new double[] {1, 4, 5}, p, 1e-9);
    }
}
