package io.saba.core.corun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The weight search against brute force and on cases with a known answer. */
class CorunAllocatorTest {
    private static CorunProfile bulk(double seconds) {
        return CorunProfile.of(TrafficRecord.constant(seconds, 1.0, 0.1));
    }

    @Test
    void theShorterOfTwoBulkJobsGoesFirst() {
        // SRPT: the 5-s job at the floor's complement finishes near 5/0.95 s, the 10-s one barely later than 15 s
        CorunAllocator.Decision d = CorunAllocator.choose(List.of(bulk(10), bulk(5)), 1.0, 0.05, null, List.of());
        assertEquals(0.05, d.weights()[0], 1e-9);
        assertEquals(0.95, d.weights()[1], 1e-9);
        assertTrue(d.predictedTotal() < d.equalTotal());
        assertEquals(d.weights()[0] + d.weights()[1], 1.0, 1e-9);
    }

    @Test
    void weightsSumToTheCapacityAndKeepTheFloor() {
        CorunAllocator.Decision d = CorunAllocator.choose(List.of(bulk(10), bulk(5), bulk(7)), 0.9, 0.05, null,
                List.of());
        assertEquals(0.9, Arrays.stream(d.weights()).sum(), 1e-9);
        assertTrue(Arrays.stream(d.weights()).allMatch(w -> w >= 0.05 - 1e-9), Arrays.toString(d.weights()));
    }

    @Test
    void threeApplicationsFindWhatAFineGridFinds() {
        Random r = new Random(7);
        for (int trial = 0; trial < 10; trial++) {
            List<CorunProfile> apps = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                double[] u = new double[20 + r.nextInt(40)];
                for (int k = 0; k < u.length; k++) {
                    u[k] = r.nextDouble() < 0.5 ? r.nextDouble() : 0;
                }
                apps.add(CorunProfile.of(new TrafficRecord(0.5, u)));
            }
            CorunAllocator.Decision d = CorunAllocator.choose(apps, 1.0, 0.05, null, List.of());
            double brute = Double.MAX_VALUE;
            for (double a = 0.05; a <= 0.9 + 1e-9; a += 0.025) {
                for (double b = 0.05; a + b <= 0.95 + 1e-9; b += 0.025) {
                    brute = Math.min(brute, CorunPredictor.total(apps, new double[] {a, b, 1 - a - b}, null));
                }
            }
            assertTrue(d.predictedTotal() <= brute * 1.01 + 1e-9, "trial " + trial + ": search "
                    + d.predictedTotal() + " vs grid " + brute);
            assertTrue(d.predictedTotal() <= d.equalTotal() + 1e-12);
        }
    }

    @Test
    void sixBulkJobsGetMoreWeightTheShorterTheyAreAndKeepTheFloorAndTheSum() {
        // all send all the time: the least sum of slowdowns gives a shorter job more weight; pairwise moves (the
        // search for up to four) reach 22.9909 here, the one-against-all moves used beyond four 22.9912
        double[] lengths = {9, 4, 7, 5, 8, 6};
        List<CorunProfile> apps = new ArrayList<>();
        for (double s : lengths) {
            apps.add(bulk(s));
        }
        CorunAllocator.Decision d = CorunAllocator.choose(apps, 0.9, 0.05, null, List.of());
        double[] w = d.weights();
        assertEquals(0.9, Arrays.stream(w).sum(), 1e-9);
        assertTrue(Arrays.stream(w).allMatch(x -> x >= 0.05 - 1e-9), Arrays.toString(w));
        for (int i = 0; i < w.length; i++) {
            for (int j = 0; j < w.length; j++) {
                assertTrue(lengths[i] >= lengths[j] || w[i] >= w[j] - 1e-9, Arrays.toString(w));
            }
        }
        assertEquals(22.9909, d.predictedTotal(), 0.001);
        assertEquals(31.5262, d.equalTotal(), 0.001);
    }
}
