package io.saba.rperf.switchmodel;

import java.util.PriorityQueue;

/**
 * The simulation clock and its pending events, ordered by (time, insertion sequence) so that events
 * scheduled for the same picosecond run in the order they were scheduled: runs are deterministic.
 */
public final class EventQueue {
    private record Event(long time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long seq;
    private long now;

    /** Current simulated time in picoseconds. */
    public long now() {
        return now;
    }

    /** Runs {@code action} at absolute time {@code at} (never before now). */
    public void at(long at, Runnable action) {
        if (at < now) {
            throw new IllegalArgumentException("event in the past: " + at + " < " + now);
        }
        events.add(new Event(at, seq++, action));
    }

    /** Runs every event with time {@code <= end}, then leaves the clock at {@code end}. */
    public void runUntil(long end) {
        while (!events.isEmpty() && events.peek().time <= end) {
            Event e = events.poll();
            now = e.time;
            e.action.run();
        }
        now = Math.max(now, end);
    }

    /** Runs every event, including those the events schedule, until none is left; returns the last one's time. */
    public long runAll() {
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.time;
            e.action.run();
        }
        return now;
    }

    /** Number of events still pending (for tests). */
    public int pending() {
        return events.size();
    }
}
