package io.saba.harness.sim.workload;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import io.saba.harness.sim.engine.SimResult;
import io.saba.harness.sim.engine.Simulation;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.network.ThrottledNetwork;
import io.saba.harness.sim.policy.PerFlowMaxMinPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The profiler of paper §4.1, run in the simulator: each workload alone on its profiled number of hosts, every
 * port throttled to each profiling level in turn; slowdown = time at the level / time unthrottled; the samples
 * are fitted by the core's {@link ModelFitter} and stored as a core {@link SensitivityTable}, exactly as the real
 * profiler does.
 */
public final class SimulatedProfiler {
    /** The paper's profiling levels, percent of the link. */
    public static final double[] LEVELS = {5, 10, 25, 50, 75, 90, 100};

    private final FlowNetwork network;
    private final int degree;

    /**
     * @param network where to profile (its first {@code profiledNodes} hosts are used)
     * @param degree polynomial degree k, 1–3
     */
    public SimulatedProfiler(FlowNetwork network, int degree) {
        this.network = network;
        this.degree = degree;
    }

    /** Slowdown samples of one workload at every level, at a dataset scale (1 = the profiled dataset). */
    public List<Sample> samples(WorkloadSpec w, double datasetScale) {
        List<String> hosts = network.hosts().subList(0, w.profiledNodes());
        JobSpec job = new JobSpec(w.name(), w, datasetScale, hosts);
        double full = runAlone(network, job);
        List<Sample> out = new ArrayList<>();
        for (double level : LEVELS) {
            double t = level == 100 ? full : runAlone(new ThrottledNetwork(network, level / 100), job);
            out.add(new Sample(level, t / full));
        }
        return out;
    }

    /** Completion time of a job alone on a network (no contention: any policy gives the same). */
    public static double runAlone(FlowNetwork network, JobSpec job) {
        SimResult r = new Simulation(network, List.of(job), PerFlowMaxMinPolicy.FACTORY).run();
        return r.completionSeconds().get(job.id());
    }

    /** Profiles every workload at the profiled dataset and returns the sensitivity table. */
    public SensitivityTable profile(Collection<WorkloadSpec> workloads) {
        SensitivityTable table = SensitivityTable.empty()
                .withNote("simulated profiler, degree " + degree + ", levels 5-100 %, alone on the profiled nodes");
        for (WorkloadSpec w : workloads) {
            FittedModel fit = ModelFitter.fit(samples(w, 1.0), degree);
            ProfilingContext ctx = new ProfilingContext(w.profiledNodes(), "1x (simulated)", null,
                    "simulated, " + Math.round(network.hostLinkRate() * 8 / 1e9) + " Gbit/s links",
                    "simulated profiler (io.saba.harness)");
            table = table.with(TableEntry.of(w.name(), fit, ctx));
        }
        return table;
    }
}
