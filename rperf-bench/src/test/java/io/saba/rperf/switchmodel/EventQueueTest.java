package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
    @Test
    void sameTimeEventsRunInSchedulingOrder() {
        EventQueue q = new EventQueue();
        List<String> seen = new ArrayList<>();
        q.at(5, () -> seen.add("b"));
        q.at(3, () -> seen.add("a"));
        q.at(5, () -> seen.add("c"));
        q.at(5, () -> q.at(5, () -> seen.add("d")));
        q.runUntil(10);
        assertEquals(List.of("a", "b", "c", "d"), seen);
        assertEquals(10, q.now());
    }

    /**
     * Events that schedule more events, many at the time they run (which skip the heap) and many at equal times: the
     * queue runs them in exactly the (time, sequence) order a sorted list of all of them gives.
     */
    @Test
    void randomCascadesRunInTimeThenSchedulingOrder() {
        EventQueue q = new EventQueue();
        SplittableRandom rnd = new SplittableRandom(3);
        List<long[]> scheduled = new ArrayList<>(); // {time, sequence}
        List<Long> ran = new ArrayList<>();
        int[] budget = {20_000};
        class Spawn implements Runnable {
            final long id;

            Spawn(long id) {
                this.id = id;
            }

            @Override
            public void run() {
                ran.add(id);
                for (int k = rnd.nextInt(3); k > 0 && budget[0] > 0; k--, budget[0]--) {
                    long at = q.now() + (rnd.nextBoolean() ? 0 : rnd.nextInt(4) * 100L);
                    scheduled.add(new long[] {at, scheduled.size()});
                    q.at(at, new Spawn(scheduled.size() - 1));
                }
            }
        }
        for (int i = 0; i < 50; i++) {
            long at = rnd.nextInt(10) * 100L;
            scheduled.add(new long[] {at, scheduled.size()});
            q.at(at, new Spawn(scheduled.size() - 1));
        }
        q.runAll();
        List<long[]> sorted = new ArrayList<>(scheduled);
        sorted.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        assertEquals(sorted.stream().map(e -> e[1]).toList(), ran);
        assertEquals(0, q.pending());
    }

    @Test
    void schedulingInThePastIsRefused() {
        EventQueue q = new EventQueue();
        q.runUntil(10);
        assertThrows(IllegalArgumentException.class, () -> q.at(9, () -> { }));
    }
}
