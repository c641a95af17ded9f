package io.saba.harness.campaign;

import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.workload.JobSpec;
import java.util.ArrayList;
import java.util.List;

/** Runs the same jobs under a baseline and a policy and pairs each job's completion times. */
public final class PairedRun {
    private PairedRun() {
    }

    public static List<JobOutcome> run(int setup, FlowNetwork network, List<JobSpec> jobs, PolicyFactory baseline,
                                       PolicyFactory policy) {
        return run(setup, network, jobs, baseline, policy, Mechanisms.NONE);
    }

    /** As above, with the given mechanisms on in both runs (and the policy's run short of Saba's own cores). */
    public static List<JobOutcome> run(int setup, FlowNetwork network, List<JobSpec> jobs, PolicyFactory baseline,
                                       PolicyFactory policy, Mechanisms mechanisms) {
        SimResult b = mechanisms.simulation(network, jobs, baseline).run();
        SimResult p = mechanisms.policySimulation(network, jobs, policy).run();
        List<JobOutcome> out = new ArrayList<>(jobs.size());
        for (JobSpec j : jobs) {
            out.add(new JobOutcome(setup, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                    b.completionSeconds().get(j.id()), p.completionSeconds().get(j.id())));
        }
        return out;
    }
}
