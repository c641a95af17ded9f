package io.saba.controller.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A queue's bytes over an interval, from counters sampled about once a second. */
class QueueCountersTest {
    private static final PortId P = new PortId("sw", 2);
    private static final PortId Q = new PortId("h3", 0);

    @Test
    void theBytesOverAnIntervalAreInterpolatedBetweenTheSamplesAroundItsEnds() {
        QueueCounters c = new QueueCounters();
        c.sample(P, 10_000, Map.of(0, 0L, 1, 100L));
        c.sample(P, 11_000, Map.of(0, 1_000L, 1, 100L));
        c.sample(P, 12_000, Map.of(0, 3_000L, 1, 100L));
        c.sample(P, 13_000, Map.of(0, 3_000L, 1, 900L));
        // queue 0 at 10.5 s: 500; at 11.5 s: 2,000
        assertEquals(1_500, c.sent(P, 0, 10_500, 11_500));
        assertEquals(3_000, c.sent(P, 0, 10_000, 13_000), "on the samples");
        assertEquals(800, c.sent(P, 1, 10_000, 13_000));
        assertEquals(0, c.sent(P, 0, 12_200, 12_700), "an idle stretch");
        assertEquals(800, c.sent(P, 1, 12_000, 14_500), "an end within the grace after the last sample: its value");
        assertEquals(-1, c.sent(P, 1, 12_000, 15_500), "beyond the grace: not covered");
        assertEquals(-1, c.sent(P, 0, 9_000, 12_000), "before the first sample");
        assertEquals(-1, c.sent(P, 7, 10_000, 12_000), "no such queue");
        assertEquals(-1, c.sent(Q, 0, 10_000, 12_000), "a port never sampled");
    }

    @Test
    void aCounterThatWentDownOrAQueueThatWentAwayMakesTheIntervalUnknown() {
        QueueCounters c = new QueueCounters();
        c.sample(P, 0, Map.of(0, 5_000L));
        c.sample(P, 1_000, Map.of(0, 6_000L));
        c.sample(P, 2_000, Map.of(0, 200L)); // deleted and created again by a push
        c.sample(P, 3_000, Map.of(0, 1_200L));
        assertEquals(-1, c.sent(P, 0, 500, 2_500));
        assertEquals(1_000, c.sent(P, 0, 2_000, 3_000), "after the restart");
        assertEquals(1_000, c.sent(P, 0, 0, 1_000), "before it");

        c.sample(P, 4_000, Map.of(1, 50L)); // queue 0 gone, queue 1 new
        c.sample(P, 5_000, Map.of(0, 10L, 1, 80L));
        assertEquals(-1, c.sent(P, 0, 2_500, 4_500));
        assertEquals(30, c.sent(P, 1, 4_000, 5_000));
    }

    @Test
    void theBusiestLinkIsTheQueueThatSentMost() {
        QueueCounters c = new QueueCounters();
        for (long t = 0; t <= 3_000; t += 1_000) {
            c.sample(P, t, Map.of(1, t * 3));
            c.sample(Q, t, Map.of(2, t * 5));
        }
        assertEquals(10_000, c.busiest(Map.of(P, 1, Q, 2), 1_000, 3_000));
        assertEquals(6_000, c.busiest(Map.of(P, 1, Q, 0), 1_000, 3_000), "Q's queue 0 is unknown");
        assertEquals(-1, c.busiest(Map.of(), 1_000, 3_000));

        c.retain(List.of(Q));
        assertEquals(-1, c.sent(P, 1, 1_000, 3_000), "forgotten once not in use");
    }

    @Test
    void samplesOlderThanTheHistoryAreDropped() {
        QueueCounters c = new QueueCounters();
        c.sample(P, 0, Map.of(0, 0L));
        c.sample(P, 1_000, Map.of(0, 10L));
        c.sample(P, QueueCounters.HISTORY_MILLIS + 2_000, Map.of(0, 20L));
        c.sample(P, QueueCounters.HISTORY_MILLIS + 3_000, Map.of(0, 30L));
        assertEquals(-1, c.sent(P, 0, 0, 1_000));
        assertEquals(10, c.sent(P, 0, QueueCounters.HISTORY_MILLIS + 2_000, QueueCounters.HISTORY_MILLIS + 3_000));
    }
}
