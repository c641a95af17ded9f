package io.saba.harness.campaign;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.model.ModelChoice;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.harness.sim.engine.Mechanisms;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.Networks;
import io.saba.harness.sim.policy.CanonicalCachingSolver;
import io.saba.harness.sim.policy.ControllerPlanner;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import io.saba.harness.sim.policy.SabaPolicy;
import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one testbed-campaign setup needs, built from the result-deciding settings alone, so that any JVM (a local
 * worker thread or a Spark executor) computes the same rows for the same setup index. The built context (network,
 * profiled table, Saba policy, setup generator) is cached per JVM: profiling once per executor, not once per task.
 *
 * @param seed               random seed of the setup draws
 * @param model              which fitted models the simulated profile keeps (auto: as {@code saba profile})
 * @param queues             Saba queues per port
 * @param capacity           C_Saba, fraction of the link
 * @param mechanisms         what both runs model beyond ideal fluid sharing
 * @param allocation         how Saba's controller chooses a port's weights
 */
public record TestbedSetups(long seed, ModelChoice model, int queues, double capacity, Mechanisms mechanisms,
                            Allocation allocation) implements Serializable {
    private static final ConcurrentHashMap<TestbedSetups, Context> CONTEXTS = new ConcurrentHashMap<>();

    static TestbedSetups of(TestbedCampaignConfig cfg) {
        return new TestbedSetups(cfg.seed(), cfg.model(), cfg.queues(), cfg.capacity(), cfg.mechanisms(),
                cfg.allocation());
    }

    /** The models Saba uses in this campaign (profiled in the simulator, deterministic). */
    public SensitivityTable table() {
        return context().table;
    }

    /** Setup {@code index} under per-flow max-min and under Saba, one row per job. */
    public List<JobOutcome> run(int index) {
        Context c = context();
        List<JobSpec> jobs = new ArrayList<>();
        for (DrawnJob<WorkloadSpec> d : c.generator.setup(index)) {
            jobs.add(new JobSpec(d.id(), d.workload(), d.datasetScale(), d.hosts()));
        }
        return PairedRun.run(index, c.network, jobs, PerFlowMaxMinPolicy.FACTORY, c.saba, mechanisms);
    }

    private Context context() {
        return CONTEXTS.computeIfAbsent(this, Context::new);
    }

    private static final class Context {
        final FlowNetwork network = Networks.testbed();
        final SensitivityTable table;
        final PolicyFactory saba;
        final SetupGenerator<WorkloadSpec> generator;

        Context(TestbedSetups s) {
            List<WorkloadSpec> workloads = new ArrayList<>(HibenchCatalog.specs(network.hostLinkRate()).values());
            table = new SimulatedProfiler(network, s.model).profile(workloads);
            saba = SabaPolicy.factory(ControllerPlanner.centralised(table,
                    new CanonicalCachingSolver(new MinSlowdownSolver()), s.allocation, LevelAssigner.INFINIBAND_LEVELS,
                    s.queues, s.capacity));
            generator = new SetupGenerator<>(workloads, network.hosts(), SetupRules.paper(), s.seed);
        }
    }
}
