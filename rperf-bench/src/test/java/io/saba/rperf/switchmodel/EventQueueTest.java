package io.saba.rperf.switchmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
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

    @Test
    void schedulingInThePastIsRefused() {
        EventQueue q = new EventQueue();
        q.runUntil(10);
        assertThrows(IllegalArgumentException.class, () -> q.at(9, () -> { }));
    }
}
