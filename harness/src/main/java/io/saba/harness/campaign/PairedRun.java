package io.saba.harness.campaign;

import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Simulation;
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
        return run(setup, network, jobs, baseline, policy, false);
    }

    /** As above, optionally with head-of-line blocking at switch input buffers (for both runs). */
    public static List<JobOutcome> run(int setup, FlowNetwork network, List<JobSpec> jobs, PolicyFactory baseline,
                                       PolicyFactory policy, boolean headOfLineBlocking) {
        return run(setup, network, jobs, baseline, policy, headOfLineBlocking, 0);
    }

    /**
     * As above; with {@code sharedCores} > 0 every job computes on that one pool of cores (a namespace testbed's
     * hosts share their machine's), with 0 each instance on a host of its own.
     */
    public static List<JobOutcome> run(int setup, FlowNetwork network, List<JobSpec> jobs, PolicyFactory baseline,
                                       PolicyFactory policy, boolean headOfLineBlocking, double sharedCores) {
        SimResult b = simulation(network, jobs, baseline, headOfLineBlocking, sharedCores).run();
        SimResult p = simulation(network, jobs, policy, headOfLineBlocking, sharedCores).run();
        List<JobOutcome> out = new ArrayList<>(jobs.size());
        for (JobSpec j : jobs) {
            out.add(new JobOutcome(setup, j.id(), j.workload().name(), j.datasetScale(), j.hosts().size(),
                    b.completionSeconds().get(j.id()), p.completionSeconds().get(j.id())));
        }
        return out;
    }

    private static Simulation simulation(FlowNetwork network, List<JobSpec> jobs, PolicyFactory policy,
                                         boolean headOfLineBlocking, double sharedCores) {
        Simulation s = new Simulation(network, jobs, policy, headOfLineBlocking);
        return sharedCores > 0 ? s.sharedCores(sharedCores) : s;
    }
}
