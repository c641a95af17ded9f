package io.saba.core.corun;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The weight search's shortcuts decide exactly what the plain search decides: replays that give up once a
 * candidate cannot win, and the replay's own bookkeeping, change its cost, never its answer (the simulated
 * campaign's per-job results depend on every bit of it).
 */
class CorunSearchExactnessTest {
    /** Bursty records of 40–200 intervals: some idle, some below the burst rate, some scaled by the curve. */
    static List<CorunProfile> randomApps(Random r, int n) {
        List<CorunProfile> apps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double[] u = new double[40 + r.nextInt(161)];
            double busy = 0.2 + 0.7 * r.nextDouble();
            double peak = 0.3 + 0.7 * r.nextDouble();
            for (int k = 0; k < u.length; k++) {
                double x = r.nextDouble();
                u[k] = x < busy ? peak * (0.5 + 0.5 * r.nextDouble()) : x < busy + 0.1 ? 0.02 : 0;
            }
            TrafficRecord record = new TrafficRecord(0.05 + r.nextDouble(), u);
            CorunProfile face = CorunProfile.of(record);
            apps.add(r.nextBoolean() ? face : new CorunProfile(record, face.networkBound() * r.nextDouble()));
        }
        return apps;
    }

    @Test
    void theReplayFinishesEveryApplicationWhenTheReferenceReplayDoesBitForBit() {
        Random r = new Random(3);
        for (int trial = 0; trial < 400; trial++) {
            int n = 1 + r.nextInt(16);
            List<CorunProfile> apps = randomApps(r, n);
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                // zero weights, equal weights, and weights large enough to push senders to their burst rates
                w[i] = switch (trial % 4) {
                    case 0 -> 1;
                    case 1 -> r.nextInt(5) == 0 ? 0 : r.nextDouble();
                    case 2 -> i == 0 ? 0.95 : 0.05 / n;
                    default -> 0.05 + r.nextDouble();
                };
            }
            double[] offsets = trial % 5 == 0 ? r.doubles(n, 0, 20).toArray() : null;
            assertArrayEquals(ReferenceReplay.finishTimes(apps, w, offsets), PortReplay.finishTimes(apps, w, offsets),
                    0, "trial " + trial);
        }
    }

    @Test
    void theSearchDecidesBitForBitWhatItDecidesWithoutGivingUpEarly() {
        Random r = new Random(47);
        for (int trial = 0; trial < 60; trial++) {
            int n = 2 + trial % 9;
            List<CorunProfile> apps = randomApps(r, n);
            double[] start = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                start[i] = 0.05 + r.nextDouble();
                sum += start[i];
            }
            for (int i = 0; i < n; i++) {
                start[i] *= 0.9 / sum;
            }
            CorunAllocator.Decision pruned = CorunAllocator.choose(apps, 0.9, 0.05, null, List.of(start), true);
            CorunAllocator.Decision plain = CorunAllocator.choose(apps, 0.9, 0.05, null, List.of(start), false);
            String what = "trial " + trial + " (" + n + " applications)";
            assertArrayEquals(plain.weights(), pruned.weights(), 0, what);
            assertEquals(plain.predictedTotal(), pruned.predictedTotal(), 0, what);
            assertEquals(plain.equalTotal(), pruned.equalTotal(), 0, what);
        }
    }

    @Test
    void aReplayThatGivesUpOnlyDoesSoAtOrAboveItsLimitAndOtherwiseGivesTheFullTotal() {
        Random r = new Random(11);
        int gaveUp = 0;
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + r.nextInt(12);
            List<CorunProfile> apps = randomApps(r, n);
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                w[i] = r.nextInt(10) == 0 ? 0 : r.nextDouble();
            }
            double[] offsets = trial % 3 == 0 ? null : r.doubles(n, 0, 5).toArray();
            double full = CorunPredictor.total(apps, w, offsets);
            // limits around the total: just below, at, just above, far below
            for (double limit : new double[] {full * (1 - 1e-3), full, full * (1 + 1e-9), n + 1e-6, full + 1}) {
                double t = CorunPredictor.total(apps, w, offsets, limit);
                if (t == Double.POSITIVE_INFINITY) {
                    gaveUp++;
                    assertTrue(full >= limit, "trial " + trial + ": gave up below its limit " + limit + " at " + full);
                } else {
                    assertEquals(full, t, 0, "trial " + trial + Arrays.toString(w));
                }
            }
        }
        assertTrue(gaveUp > 100, "the bound never cut a replay short: " + gaveUp);
    }
}
