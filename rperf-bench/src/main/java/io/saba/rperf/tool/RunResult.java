package io.saba.rperf.tool;

import java.util.List;

/** Every generator's result from one run. */
public record RunResult(List<LatencyResult> latency, List<BandwidthResult> bandwidth) {
    public double totalGbps() {
        return bandwidth.stream().mapToDouble(BandwidthResult::gbps).sum();
    }
}
