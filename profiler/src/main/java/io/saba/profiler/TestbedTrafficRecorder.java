package io.saba.profiler;

import io.saba.testbed.TestbedSpec;
import io.saba.core.corun.TrafficRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A testbed workload's traffic record: the egress of the hosts that run its executors (where co-running
 * applications meet on the testbed: each host's NIC egress is shaped to the link rate), sampled every
 * {@code intervalMillis}, as a fraction of the link rate per interval: the busiest of those hosts in each interval.
 * The busiest, not the mean: an application's hosts play different parts (an ML job's executors send their results
 * to the driver's host at the full link rate while that host sends only broadcasts), and the mean of a link at full
 * rate and one nearly idle looks like two links at half rate, which a shared port would barely slow.
 */
public final class TestbedTrafficRecorder implements TrafficRecorder {
    public static final long DEFAULT_INTERVAL_MILLIS = 100;

    private final TestbedSpec spec;
    private final List<Integer> hosts;
    private final long intervalMillis;

    /** @param hosts testbed host indices (1-based) that run the workload's executors */
    public TestbedTrafficRecorder(TestbedSpec spec, List<Integer> hosts, long intervalMillis) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a traffic record needs at least one host");
        }
        this.spec = spec;
        this.hosts = List.copyOf(hosts);
        this.intervalMillis = intervalMillis;
    }

    @Override
    public Recording start() throws IOException {
        List<String> namespaces = new ArrayList<>();
        hosts.forEach(h -> namespaces.add(spec.hostNamespace(h)));
        EgressSampler sampler = EgressSampler.start(namespaces, TestbedSpec.HOST_DEVICE, intervalMillis / 4);
        return new Recording() {
            @Override
            public TrafficRecord stop(long startedMillis, double seconds) {
                EgressSampler.Samples s = sampler.samples();
                sampler.close();
                long end = startedMillis + Math.round(seconds * 1000);
                if (s.epochMillis().isEmpty() || s.epochMillis().get(0) > startedMillis
                        || s.epochMillis().get(s.epochMillis().size() - 1) < end - intervalMillis) {
                    return null; // the samples do not cover the job's window
                }
                double linkBytes = spec.linkRateBps() / 8.0 * intervalMillis / 1000.0;
                double[] busiest = null;
                for (String ns : namespaces) {
                    double[] b = s.perInterval(ns, startedMillis, end, intervalMillis);
                    if (busiest == null) {
                        busiest = new double[b.length];
                    }
                    for (int i = 0; i < b.length; i++) {
                        busiest[i] = Math.max(busiest[i], Math.min(1, b[i] / linkBytes));
                    }
                }
                return new TrafficRecord(intervalMillis / 1000.0, busiest);
            }

            @Override
            public void close() {
                sampler.close();
            }
        };
    }
}
