package io.saba.core.corun;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay on cases worked out by hand (link-seconds: a second of sending alone at full rate is one unit). */
class CorunPredictorTest {
    private static final double EPS = 1e-9;

    private static CorunProfile bulk(double seconds) {
        return CorunProfile.of(TrafficRecord.constant(seconds, 1.0, 0.1));
    }

    /** {@code cycles} × (1 s sending, 1 s computing). */
    private static CorunProfile onOff(int cycles) {
        double[] u = new double[2 * cycles];
        for (int i = 0; i < u.length; i += 2) {
            u[i] = 1;
        }
        return CorunProfile.of(new TrafficRecord(1.0, u));
    }

    @Test
    void twoEqualBulkJobsOnAnEqualSplitBothTakeTwiceAsLong() {
        assertArrayEquals(new double[] {2, 2}, CorunPredictor.slowdowns(List.of(bulk(10), bulk(10)),
                new double[] {0.5, 0.5}), EPS);
    }

    @Test
    void favouringOneOfTwoBulkJobsLowersTheSum() {
        // 0.75/0.25: the first sends 10 units at 0.75, done at 13.33 s; the second has sent 3.33 by then and sends
        // its last 6.67 alone, done at 20 s
        double[] d = CorunPredictor.slowdowns(List.of(bulk(10), bulk(10)), new double[] {0.75, 0.25});
        assertArrayEquals(new double[] {4.0 / 3, 2}, d, 1e-6);
    }

    @Test
    void workConservationLetsTheBulkJobUseTheBurstyJobsIdleTime() {
        // A: 10 × (1 s on, 1 s off), 20 s alone; B: 10 s bulk. Equal weights: per 3-s cycle A's 1 unit at 0.5 takes
        // 2 s while B gets 1, then A computes 1 s while B gets 1; B is done after 5 cycles (15 s), A runs its last
        // 5 cycles alone: 25 s.
        List<CorunProfile> apps = List.of(onOff(10), bulk(10));
        assertArrayEquals(new double[] {25.0 / 20, 15.0 / 10}, CorunPredictor.slowdowns(apps,
                new double[] {0.5, 0.5}), 1e-6);
        // A first: A never waits (20 s); B gets A's 10 s of computing and is done at 20 s
        assertArrayEquals(new double[] {1, 2}, CorunPredictor.slowdowns(apps, new double[] {1, 0}), 1e-6);
        // B first: B is done at 10 s; A's first transfer waits until then, then A runs alone: 30 s
        assertArrayEquals(new double[] {1.5, 1}, CorunPredictor.slowdowns(apps, new double[] {0, 1}), 1e-6);
    }

    @Test
    void aJobThatNeverWaitsOnTheNetworkIsNeverSlowed() {
        CorunProfile compute = CorunProfile.of(TrafficRecord.constant(10, 0, 0.1));
        double[] d = CorunPredictor.slowdowns(List.of(compute, bulk(10)), new double[] {0.05, 0.95});
        assertEquals(1, d[0], EPS);
        assertEquals(1, d[1], EPS);
    }

    @Test
    void theNetworkBoundShareScalesWhatTheRecordShows() {
        // a record that is always sending, but whose computation overlaps half of it: it waits on 50 %
        CorunProfile half = new CorunProfile(TrafficRecord.constant(10, 1.0, 0.1), 0.5);
        assertEquals(1 - 0.5 + 0.5 / 0.25, half.cappedSlowdown(0.25), EPS);
        // against an equal bulk job on an equal split: it sends 5 units at 0.5 interleaved with 5 s of computing
        double[] d = CorunPredictor.slowdowns(List.of(half, bulk(10)), new double[] {0.5, 0.5});
        assertTrue(d[0] > 1 && d[0] < 2, "waits on half its run, so less than the bulk job: " + d[0]);
    }

    @Test
    void aJobLimitedToHalfTheLinkLosesNothingAtHalf() {
        // it sends at 0.5 (another port limits it) for 10 s; the bulk job beside it gets the other half, then all
        CorunProfile half = CorunProfile.of(TrafficRecord.constant(10, 0.5, 0.1));
        assertEquals(0.5, half.burstRate(), 1e-12);
        double[] d = CorunPredictor.slowdowns(List.of(half, bulk(10)), new double[] {0.5, 0.5});
        assertEquals(1, d[0], 1e-9);
        assertEquals(1.5, d[1], 1e-9); // 5 units by 10 s, the other 5 alone by 15 s
        // giving it more than its burst rate changes nothing: the bulk job takes what it leaves
        assertArrayEquals(d, CorunPredictor.slowdowns(List.of(half, bulk(10)), new double[] {0.9, 0.1}), 1e-9);
    }

    @Test
    void anOffsetStartsPartWayThroughTheRun() {
        // half-way through a 10 s bulk job, 5 units are left: alone 5 s, at an equal split with a 5-s job 10 s
        double[] d = CorunPredictor.slowdowns(List.of(bulk(10), bulk(5)), new double[] {1, 1}, new double[] {5, 0});
        assertArrayEquals(new double[] {2, 2}, d, 1e-6);
    }

    @Test
    void badInputIsNamed() {
        assertThrows(IllegalArgumentException.class, () -> new TrafficRecord(0.1, new double[] {1.2}));
        assertThrows(IllegalArgumentException.class, () -> new CorunProfile(TrafficRecord.constant(1, 1, 0.1), 2));
        assertThrows(IllegalArgumentException.class, () -> CorunPredictor.slowdowns(List.of(bulk(1)),
                new double[] {1, 1}));
    }
}
