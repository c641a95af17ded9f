package io.saba.harness.sim.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Compute phases that share one pool of cores by processor sharing, as the hosts of a namespace testbed do: they are
 * network namespaces on one machine, so every job's executors run on the same cores. While the phases in progress
 * ask for more cores than the pool has, each progresses at cores/demand of its own speed; otherwise at full speed.
 * A phase asks for one core per instance (one executor core each, as the testbed campaign runs them).
 */
final class CpuPool {
    private static final double EPS = 1e-9;

    private final double cores;
    private final List<Phase> phases = new ArrayList<>();

    private static final class Phase {
        final int demand;
        double remaining;
        final Runnable done;

        Phase(int demand, double work, Runnable done) {
            this.demand = demand;
            this.remaining = work;
            this.done = done;
        }
    }

    CpuPool(double cores) {
        if (!(cores > 0)) {
            throw new IllegalArgumentException("a shared CPU pool needs a positive number of cores, not " + cores);
        }
        this.cores = cores;
    }

    /** A phase of {@code seconds} at full speed on {@code instances} cores; {@code done} runs when it ends. */
    void start(int instances, double seconds, Runnable done) {
        phases.add(new Phase(Math.max(1, instances), seconds, done));
    }

    boolean busy() {
        return !phases.isEmpty();
    }

    /** The speed of every phase now: 1 while the pool has a core for each instance computing. */
    double speed() {
        int demand = 0;
        for (Phase p : phases) {
            demand += p.demand;
        }
        return demand <= cores ? 1 : cores / demand;
    }

    /** When the next phase ends at today's speed, or infinity with none in progress. */
    double nextEnd(double now) {
        double speed = speed();
        double next = Double.POSITIVE_INFINITY;
        for (Phase p : phases) {
            next = Math.min(next, now + Math.max(0, p.remaining) / speed);
        }
        return next;
    }

    void advance(double dt) {
        double speed = speed();
        for (Phase p : phases) {
            p.remaining -= speed * dt;
        }
    }

    /** Removes the phases that have ended and returns what to run for them, in the order they started. */
    List<Runnable> takeEnded() {
        List<Runnable> out = new ArrayList<>();
        for (Iterator<Phase> it = phases.iterator(); it.hasNext(); ) {
            Phase p = it.next();
            if (p.remaining <= EPS) {
                it.remove();
                out.add(p.done);
            }
        }
        return out;
    }
}
