package io.saba.harness.sim.workload;

import java.util.List;

/**
 * A workload: its stages and the parts of its run time that do not scale with data.
 *
 * @param name                 profile key (e.g. {@code lr})
 * @param profiledNodes        nodes it was profiled on (8 on the testbed, 18 at scale)
 * @param fixedSecondsPerStage per-stage overhead that neither data nor nodes change (scheduling, task launch);
 *                             it is what makes a small dataset less bandwidth-sensitive than the profiled one
 * @param sendCapFraction      the most one instance can send, as a fraction of the line rate (serialisation and
 *                             disk keep some workloads from ever filling a 56 Gbit/s link); 1 = no limit
 * @param stages               the stages, in order
 */
public record WorkloadSpec(String name, int profiledNodes, double fixedSecondsPerStage, double sendCapFraction,
                           List<StageSpec> stages) {
    public WorkloadSpec {
        stages = List.copyOf(stages);
        if (profiledNodes < 2 || fixedSecondsPerStage < 0 || !(sendCapFraction > 0 && sendCapFraction <= 1)) {
            throw new IllegalArgumentException("bad workload " + name);
        }
    }
}
