package io.saba.harness.sim.network;

import io.saba.core.alloc.PortId;
import java.util.List;

/**
 * A network whose every port runs at a fraction of its rate: what the profiler does when it limits the NICs of
 * the nodes a workload runs on (paper §4.1). The line rate it reports stays the unthrottled one.
 */
public final class ThrottledNetwork implements FlowNetwork {
    private final FlowNetwork inner;
    private final double fraction;

    public ThrottledNetwork(FlowNetwork inner, double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("throttle fraction must be in (0, 1], got " + fraction);
        }
        this.inner = inner;
        this.fraction = fraction;
    }

    @Override
    public List<String> hosts() {
        return inner.hosts();
    }

    @Override
    public List<PortId> path(String src, String dst) {
        return inner.path(src, dst);
    }

    @Override
    public double capacity(PortId port) {
        return inner.capacity(port) * fraction;
    }

    @Override
    public double hostLinkRate() {
        return inner.hostLinkRate();
    }
}
