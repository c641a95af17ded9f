package io.saba.harness.campaign;

import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.fabric.Fabric;
import io.saba.harness.sim.workload.JobSpec;
import java.util.ArrayList;
import java.util.List;

/** Runs the same jobs under a baseline and a policy and pairs each job's completion times. */
public final class PairedRun {
    private PairedRun() {
    }

    public static List<JobOutcome> run(int setup, Fabric fabric, List<JobSpec> jobs, PolicyFactory baseline,
                                       PolicyFactory policy) {
        SimResult b = new Simulation(fabric, jobs, baseline).run();
        SimResult p = new Simulation(fabric, jobs, policy).run();
        List<JobOutcome> out = new ArrayList<>(jobs.size());
        for (JobSpec j : jobs) {
            out.add(new JobOutcome(setup, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                    b.completionSeconds().get(j.id()), p.completionSeconds().get(j.id())));
        }
        return out;
    }
}
