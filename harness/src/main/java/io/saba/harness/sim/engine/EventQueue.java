package io.saba.harness.sim.engine;

import java.util.PriorityQueue;

/**
 * A simulation's pending events in time order. Events at the same time run in the order they were scheduled, so a
 * run is a pure function of its inputs; the same counter numbers the flow groups as they start, which gives policies
 * that sort them a stable tie-breaker.
 */
final class EventQueue {
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long sequence;

    private record Event(double time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    void schedule(double time, Runnable action) {
        queue.add(new Event(time, nextSequence(), action));
    }

    /** The next number of the counter that orders events scheduled at the same time. */
    long nextSequence() {
        return sequence++;
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** When the next event is due, or infinity with none pending. */
    double nextTime() {
        return queue.isEmpty() ? Double.POSITIVE_INFINITY : queue.peek().time;
    }

    /**
     * Runs the events due by {@code now}, including those they schedule for {@code now} or earlier.
     *
     * @return how many ran
     */
    long runDue(double now) {
        long ran = 0;
        while (!queue.isEmpty() && queue.peek().time <= now) {
            ran++;
            queue.poll().action.run();
        }
        return ran;
    }
}
