package io.saba.harness.sim.workload;

import io.saba.core.corun.CorunProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated workload calibrated from what the real one sent: its co-run profile (the traffic record the profiler
 * sampled on a testbed host's egress, and the share of the run it waited on the network). The same model as the
 * co-run predictor's, so that the simulator and the controller's predictor agree on a single port and differ only
 * in what the simulator adds (several ports, all-to-all flows between instances, per-flow sharing): each interval
 * of the record is computation followed by the bytes the job waited for, sent at up to the workload's burst rate.
 *
 * <p>One stage per interval that sends; the idle intervals before it become that stage's computation. A record of
 * one instance's egress on {@code profiledNodes} instances means the whole job shuffled {@code P²/(P − 1)} times
 * those bytes (each instance sends (P − 1)/P² of an all-to-all shuffle), which is what a stage's shuffle bytes
 * count.
 */
public final class RecordedWorkload {
    /** Intervals waiting on fewer bytes than this fraction of the link are computation only (idle links trickle). */
    private static final double SENDING = 1e-3;

    private RecordedWorkload() {
    }

    /**
     * @param name          the table key
     * @param profile       the workload's co-run profile
     * @param profiledNodes instances it ran on when profiled (at least 2: one alone shuffles nothing over the link)
     * @param lineRate      bytes per second of the link the record was taken on
     */
    public static WorkloadSpec of(String name, CorunProfile profile, int profiledNodes, double lineRate) {
        if (profiledNodes < 2) {
            throw new IllegalArgumentException(name + ": a traffic record of one instance shows no shuffle");
        }
        double dt = profile.record().intervalSeconds();
        double burst = profile.burstRate();
        double allToAll = profiledNodes * (double) profiledNodes / (profiledNodes - 1);
        List<StageSpec> stages = new ArrayList<>();
        double idle = 0;
        for (double waited : profile.waitedBytes()) {
            if (waited < SENDING) {
                idle += dt;
                continue;
            }
            double sending = Math.min(dt, waited * dt / burst);
            stages.add(new StageSpec(1, idle + dt - sending, waited * dt * lineRate * allToAll, 0));
            idle = 0;
        }
        if (idle > 0 || stages.isEmpty()) {
            stages.add(new StageSpec(1, idle, 0, 0));
        }
        return new WorkloadSpec(name, profiledNodes, 0, Math.min(1, burst), stages);
    }
}
