package io.saba.harness.sim.estimate;

import io.saba.core.estimate.Observation;
import io.saba.harness.sim.engine.StageRun;

/**
 * What the plugins would report of a simulated job: one unit of work (a Spark stage) per stage run of the job.
 *
 * <p>The mapping. A stage run of a job with n instances is a Spark stage of n tasks, one per instance (one executor
 * core each, as the simulated jobs run): each task runs from the stage run's start to its end, so the unit's run
 * time, summed over its tasks, is n × the stage run's duration. A task waits on the network from the end of its
 * computation until its shuffle is done (the engine's fetch wait: the part of the shuffle that did not hide under
 * the computation, queueing wait included), n × that in all. The share is the one the job's shuffle received on its
 * bottleneck port ({@link StageRun#receivedShare}, what a byte counter there would show while it sends; the
 * controller's {@code AppShares} reads it from the weights it pushed instead). The bytes are those that crossed the
 * network. A stage run that never waited gives its unit at the full link (the share does not matter to it, as in
 * {@code AppShares}).
 */
public final class SimulatedUnits {
    private SimulatedUnits() {
    }

    /** The unit a stage run makes: run and wait in milliseconds summed over its n tasks. */
    public static Observation observation(StageRun r) {
        int n = r.instances();
        long run = Math.max(1, Math.round(1000.0 * n * (r.end() - r.start())));
        long wait = Math.min(run, Math.round(1000.0 * n * r.networkWaitSeconds()));
        double share = wait == 0 ? 1.0 : r.receivedShare();
        return new Observation(run, wait, share, Math.round(r.networkBytes()));
    }
}
