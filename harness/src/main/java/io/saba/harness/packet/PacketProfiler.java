package io.saba.harness.packet;

import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.ModelSelector;
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
 * the simulated and the real profiler do. Saba then plans from what the packet model itself measures: the family is
 * chosen as {@code saba profile} chooses it ({@link ModelChoice}), and each entry carries the workload's traffic
 * record measured in the packet model, which the co-run predictor replays.
 */
public final class PacketProfiler {
    private final ModelParams params;
    private final Policy policy;
    private final ModelChoice choice;

    /** Chooses each model by {@code choice} ({@link ModelSelector}) and records each workload's traffic. */
    public PacketProfiler(ModelParams params, Policy policy, ModelChoice choice) {
        this.params = params;
        this.policy = policy;
        this.choice = choice;
    }

    /** Completion time of {@code w} alone on hosts h0…h(P−1) of one leaf with every link at {@code gbps}. */
    public double aloneSeconds(WorkloadSpec w, double gbps) {
        JobSpec job = profiledJob(w);
        return new RoundDriver(rack(w, gbps), List.of(job), Map.of(job.id(), 0)).run().completionSeconds()
                .get(job.id());
    }

    private LeafSpine.Fabric rack(WorkloadSpec w, double gbps) {
        return new LeafSpine(1, w.profiledNodes(), 1).build(params.withLinkGbps(gbps), policy, 1);
    }

    private static JobSpec profiledJob(WorkloadSpec w) {
        List<String> hosts = new ArrayList<>();
        for (int h = 0; h < w.profiledNodes(); h++) {
            hosts.add(LeafSpine.hostName(h));
        }
        return new JobSpec(w.name(), w, 1.0, hosts);
    }

    /**
     * The traffic record of {@code w} alone at full rate on its profiled hosts: the payload its first host sends,
     * per interval, over what the link carries in one (as the testbed profiler samples a host's byte counter).
     * Bytes count when they arrive; a packet's few hundred nanoseconds in flight are far below an interval.
     */
    public TrafficRecord record(WorkloadSpec w) {
        JobSpec job = profiledJob(w);
        List<long[]> arrivals = new ArrayList<>();
        double full = new RoundDriver(rack(w, params.linkGbps()), List.of(job), Map.of(job.id(), 0))
                .trace((p, t) -> {
                    if (p.srcHost() == 0) {
                        arrivals.add(new long[] {t, p.payloadBytes()});
                    }
                }).run().completionSeconds().get(job.id());
        int n = SimulatedProfiler.RECORD_INTERVALS;
        double interval = full / n;
        double[] bytes = new double[n];
        for (long[] a : arrivals) {
            bytes[Math.min(n - 1, (int) (a[0] / 1e12 / interval))] += a[1];
        }
        double perInterval = params.linkGbps() * 1e9 / 8 * interval;
        double[] utilisation = new double[n];
        // Packets that arrive bunched (after waiting in the switch) can put more than a link's worth into one
        // interval; the excess was sent before or after it, so it moves to the next interval, and at the end back
        // to earlier ones: every byte stays in the record and no interval exceeds the link.
        double carry = 0;
        for (int i = 0; i < n; i++) {
            double u = bytes[i] / perInterval + carry;
            utilisation[i] = Math.min(1, u);
            carry = u - utilisation[i];
        }
        for (int i = n - 1; i >= 0 && carry > 0; i--) {
            double room = 1 - utilisation[i];
            double moved = Math.min(room, carry);
            utilisation[i] += moved;
            carry -= moved;
        }
        return new TrafficRecord(interval, utilisation);
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
        ProfilingContext ctx = new ProfilingContext(w.profiledNodes(), "1x (packet-level model)", null,
                String.format(Locale.ROOT, "packet-level model, %.0f Gbit/s links", params.linkGbps()),
                "packet-level profiler (io.saba.harness.packet)");
        return TableEntry.of(w.name(), ModelSelector.select(samples(w), choice), ctx).withTraffic(record(w));
    }

}
