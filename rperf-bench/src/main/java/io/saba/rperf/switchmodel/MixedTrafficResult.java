package io.saba.rperf.switchmodel;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What a {@link MixedTrafficExperiment} measured: the LSG's round trips, its data packets' wait at each switch on
 * the way, and each bandwidth generator's goodput (payload bits per second delivered at the destination).
 */
public record MixedTrafficResult(MixedTrafficConfig config, Histogram lsgRttPs, List<Flow> bandwidth,
                                 List<Histogram> lsgSwitchWaitsPs) {
    /** Goodput of one BSG or pretend LSG. */
    public record Flow(String name, double gbps) {
    }

    /**
     * The LSG's median wait at the {@code i}-th switch on its way to the destination (0: the first), µs; NaN past
     * the last.
     */
    public double lsgSwitchWaitMedianUs(int i) {
        return i < lsgSwitchWaitsPs.size() ? lsgSwitchWaitsPs.get(i).getValueAtPercentile(50) / 1e6 : Double.NaN;
    }

    public double lsgMedianUs() {
        return lsgRttPs.getValueAtPercentile(50) / 1e6;
    }

    public double lsgP99Us() {
        return lsgRttPs.getValueAtPercentile(99) / 1e6;
    }

    public double lsgP999Us() {
        return lsgRttPs.getValueAtPercentile(99.9) / 1e6;
    }

    public double lsgMeanUs() {
        return lsgRttPs.getMean() / 1e6;
    }

    public double totalGbps() {
        return bandwidth.stream().mapToDouble(Flow::gbps).sum();
    }

    public double gbps(String name) {
        return bandwidth.stream().filter(f -> f.name.equals(name)).mapToDouble(Flow::gbps).sum();
    }
}
