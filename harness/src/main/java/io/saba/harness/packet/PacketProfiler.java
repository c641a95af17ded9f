package io.saba.harness.packet;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.TableEntry;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.SimulatedProfiler;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The profiler of paper §4.1 in the packet-level model: each workload alone on one leaf (its profiled number of
 * hosts, one "rack"), every link throttled to each of {@link SimulatedProfiler#LEVELS} in turn; slowdown = time at
 * the level / time at full rate, fitted by the core's {@link ModelFitter} into a core {@link SensitivityTable}, as
 * the simulated and the real profiler do. Saba then plans from what the packet model itself measures.
 */
public final class PacketProfiler {
    /** The degree the scale study fits (the paper's k = 3, as the fluid scale study). */
    public static final int DEGREE = 3;
    /** The note of a table of these profiles. */
    public static final String TABLE_NOTE = "packet-level profiler, degree 3, levels 5-100 %, alone on one leaf";
    private final ModelParams params;
    private final Policy policy;
    private final int degree;

    public PacketProfiler(ModelParams params, Policy policy, int degree) {
        this.params = params;
        this.policy = policy;
        this.degree = degree;
    }

    /** Completion time of {@code w} alone on hosts h0…h(P−1) of one leaf with every link at {@code gbps}. */
    public double aloneSeconds(WorkloadSpec w, double gbps) {
        int p = w.profiledNodes();
        LeafSpine.Fabric f = new LeafSpine(1, p, 1).build(params.withLinkGbps(gbps), policy, 1);
        List<String> hosts = new ArrayList<>();
        for (int h = 0; h < p; h++) {
            hosts.add(LeafSpine.hostName(h));
        }
        JobSpec job = new JobSpec(w.name(), w, 1.0, hosts);
        return new RoundDriver(f, List.of(job), Map.of(job.id(), 0)).run().completionSeconds().get(job.id());
    }

    /** Slowdown samples at every profiling level. */
    public List<Sample> samples(WorkloadSpec w) {
        double full = aloneSeconds(w, params.linkGbps());
        List<Sample> out = new ArrayList<>();
        for (double level : SimulatedProfiler.LEVELS) {
            double t = level == 100 ? full : aloneSeconds(w, params.linkGbps() * level / 100);
            out.add(new Sample(level, t / full));
        }
        return out;
    }

    public TableEntry entry(WorkloadSpec w) {
        FittedModel fit = ModelFitter.fit(samples(w), degree);
        ProfilingContext ctx = new ProfilingContext(w.profiledNodes(), "1x (packet-level model)", null,
                String.format(Locale.ROOT, "packet-level model, %.0f Gbit/s links", params.linkGbps()),
                "packet-level profiler (io.saba.harness.packet)");
        return TableEntry.of(w.name(), fit, ctx);
    }

}
