package io.saba.controller.fabric.infiniband;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VlArbPlanTest {
    @Test
    void exactWeightsNeedNoRounding() {
        VlArbPlan p = VlArbPlan.of(new double[] {0.1, 0.6, 0.3}, 8, 1);
        assertEquals(0, p.maxShareError(), 1e-12);
        assertArrayEquals(new double[] {0.1, 0.6, 0.3}, p.deliveredShares(), 1e-12);
        int total = p.entries().stream().mapToInt(VlArbPlan.Entry::weight).sum();
        assertEquals(10, total, "the smallest exact total wins (shortest round)");
    }

    @Test
    void entriesRespectCapacityAndByteRange() {
        Random r = new Random(7);
        for (int trial = 0; trial < 300; trial++) {
            int vls = 2 + r.nextInt(7);
            double[] w = new double[vls];
            for (int i = 0; i < vls; i++) {
                w[i] = r.nextInt(4) == 0 && i > 0 ? 0 : r.nextDouble();
            }
            int cap = List.of(8, 16, 32, 64).get(r.nextInt(4));
            int grain = List.of(1, 32, 64).get(r.nextInt(3));
            VlArbPlan p = VlArbPlan.of(w, cap, grain);
            assertTrue(p.entries().size() <= cap);
            double sum = Arrays.stream(w).sum();
            int[] weightPerVl = new int[vls];
            for (VlArbPlan.Entry e : p.entries()) {
                assertTrue(e.weight() >= 1 && e.weight() <= 255, e.toString());
                weightPerVl[e.vl()] += e.weight();
            }
            for (int i = 0; i < vls; i++) {
                assertEquals(w[i] > 0, weightPerVl[i] > 0, "VL " + i + " has weight iff asked: " + Arrays.toString(w));
            }
            // largest remainder with T grains: every share within 1/T (a floor of one grain can add to that only
            // for weights below 1/T)
            int t = Arrays.stream(p.grains()).sum();
            for (int i = 0; i < vls; i++) {
                double asked = w[i] / sum;
                double bound = Math.max(1.0 / t, asked < 1.0 / t ? 1.0 / t : 0);
                assertTrue(Math.abs(p.deliveredShares()[i] - asked) <= bound + 1e-9,
                        "VL " + i + " asked " + asked + " got " + p.deliveredShares()[i] + " T=" + t);
            }
        }
    }

    @Test
    void mtuPacketsCoarsenTheTable() {
        // weights a 4-level port might get: non-Saba 0.1, three Saba queues
        double[] w = {0.1, 0.55, 0.25, 0.1};
        VlArbPlan bytes8 = VlArbPlan.of(w, 8, 1);
        VlArbPlan mtu2048x8 = VlArbPlan.of(w, 8, 32);
        VlArbPlan mtu4096x8 = VlArbPlan.of(w, 8, 64);
        VlArbPlan mtu4096x64 = VlArbPlan.of(w, 64, 64);
        System.out.printf("share error for %s: bytes/8 entries %.4f, MTU 2048/8 %.4f, MTU 4096/8 %.4f,"
                        + " MTU 4096/64 %.4f%n", Arrays.toString(w), bytes8.maxShareError(), mtu2048x8.maxShareError(),
                mtu4096x8.maxShareError(), mtu4096x64.maxShareError());
        assertEquals(0, bytes8.maxShareError(), 1e-12);
        assertTrue(mtu4096x64.maxShareError() <= mtu4096x8.maxShareError());
        // at MTU 4096 one entry carries at most 4 packets (weight 255 sends ⌈255/64⌉ = 4): weights are multiples
        // of 64 units, capped at 255
        for (VlArbPlan.Entry e : mtu4096x8.entries()) {
            assertTrue(e.weight() % 64 == 0 || e.weight() == 255, e.toString());
        }
    }

    @Test
    void randomWeightErrorsAreReported() {
        Random r = new Random(11);
        for (int[] setup : new int[][] {{8, 1}, {8, 32}, {8, 64}, {64, 1}, {64, 32}, {64, 64}}) {
            double worst = 0;
            double mean = 0;
            int n = 200;
            for (int i = 0; i < n; i++) {
                double[] w = new double[8];
                w[0] = 0.1;
                double rest = 0;
                for (int q = 1; q < 8; q++) {
                    w[q] = r.nextDouble();
                    rest += w[q];
                }
                for (int q = 1; q < 8; q++) {
                    w[q] *= 0.9 / rest;
                }
                double e = VlArbPlan.of(w, setup[0], setup[1]).maxShareError();
                worst = Math.max(worst, e);
                mean += e / n;
                double naive = naiveError(w, setup[1]);
                assertTrue(e <= naive + 1e-12, "the search is never worse than one scaled entry per VL: " + e
                        + " vs " + naive);
            }
            System.out.printf("8 VLs, random weights, C_Saba 0.9, capacity %d, grain %d units: mean max-error"
                    + " %.4f, worst %.4f%n", setup[0], setup[1], mean, worst);
        }
    }

    /** The obvious table: one entry per VL, weight 255 × w / max w, delivered in whole grains. */
    private static double naiveError(double[] w, int grain) {
        double max = Arrays.stream(w).max().orElseThrow();
        double sum = Arrays.stream(w).sum();
        double[] packets = new double[w.length];
        double total = 0;
        for (int i = 0; i < w.length; i++) {
            int weight = Math.max(1, (int) Math.round(255 * w[i] / max));
            packets[i] = Math.ceil(weight / (double) grain);
            total += packets[i];
        }
        double err = 0;
        for (int i = 0; i < w.length; i++) {
            err = Math.max(err, Math.abs(packets[i] / total - w[i] / sum));
        }
        return err;
    }

    @Test
    void encodingRoundTrips() {
        VlArbPlan p = VlArbPlan.of(new double[] {0.2, 0.3, 0.5}, 40, 1);
        byte[][] blocks = p.lowBlocks(2);
        assertEquals(p.entries(), VlArbPlan.decode(blocks, 40).subList(0, p.entries().size()));
        assertEquals(new VlArbPlan.Entry(0, 0), VlArbPlan.decode(blocks, 40).get(39));
    }

    @Test
    void badInputIsNamed() {
        assertThrows(IllegalArgumentException.class, () -> VlArbPlan.of(new double[] {0, 0}, 8, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VlArbPlan.of(new double[] {1, 1, 1}, 2, 1));
        assertTrue(e.getMessage().contains("only 2 entries"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> VlArbPlan.of(new double[] {1, Double.NaN}, 8, 1));
    }

    @Test
    void sl2vlMapsLevelsAndSendsTheRestToVl0() {
        byte[] t = Sl2Vl.encode(Map.of(0, 0, 3, 1, 5, 2, 12, 1));
        assertEquals(1, Sl2Vl.vlOf(t, 3));
        assertEquals(2, Sl2Vl.vlOf(t, 5));
        assertEquals(1, Sl2Vl.vlOf(t, 12));
        assertEquals(0, Sl2Vl.vlOf(t, 4));
        assertEquals("0 0 0 1 0 2 0 0 0 0 0 0 1 0 0 0", Sl2Vl.describe(t));
        assertThrows(IllegalArgumentException.class, () -> Sl2Vl.encode(Map.of(16, 1)));
        assertThrows(IllegalArgumentException.class, () -> Sl2Vl.encode(Map.of(1, 15)));
    }

    @Test
    void portInfoIsParsedAtTheRightOffsets() {
        // a PortInfo answer of an ibsim switch port (NeighborMTU 2048, VL0-7, caps 8/8, high limit 0)
        byte[] b = java.util.HexFormat.of().parseHex("0000000000000000000000000000000000000000000000000000000000"
                + "021f0274520011404000080804f2400000000000000000000000000000000000000000");
        assertEquals(new PortCaps(8, 8, 8, 0, 2048), PortCaps.parse(b));
    }
}
