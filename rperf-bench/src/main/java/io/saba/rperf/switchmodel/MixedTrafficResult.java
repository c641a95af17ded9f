package io.saba.rperf.switchmodel;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What a {@link MixedTrafficExperiment} measured: the LSG's round trips and each bandwidth generator's
 * goodput (payload bits per second delivered at the destination).
 */
public record MixedTrafficResult(MixedTrafficConfig config, Histogram lsgRttPs, List<Flow> bandwidth) {
    /** Goodput of one BSG or pretend LSG. */
    public record Flow(String name, double gbps) {
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
