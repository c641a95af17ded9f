package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import java.util.ArrayList;
import java.util.List;

/**
 * What leaves one port over a run, as segments of constant rate: the simulated profiler's view of a host's egress
 * counter ({@link Simulation#traceEgress}), sampled per interval as the testbed profiler's traffic record samples a
 * byte counter.
 */
final class EgressTrace {
    private final PortId port;
    /** Each segment: start, end, bytes per second over it. */
    private final List<double[]> segments = new ArrayList<>();

    EgressTrace(PortId port) {
        this.port = port;
    }

    /** Records what the active groups send out of the port at their current rates from {@code now} for {@code dt}. */
    void record(List<FlowGroup> active, double now, double dt) {
        if (dt <= 0) {
            return;
        }
        double rate = 0;
        for (FlowGroup g : active) {
            Integer flows = g.job().flowsPerPort().get(port);
            if (flows != null) {
                rate += g.rate() * flows;
            }
        }
        if (rate > 0) {
            segments.add(new double[]{now, now + dt, rate});
        }
    }

    /** The port's utilisation per interval of {@code intervalSeconds} from 0 to {@code end}. */
    double[] utilisation(double end, double intervalSeconds, FlowNetwork network) {
        int n = Math.max(1, (int) Math.ceil(end / intervalSeconds - 1e-9));
        double[] bytes = new double[n];
        for (double[] seg : segments) {
            // spread each constant-rate segment [t0, t1) over the intervals it overlaps
            double t = seg[0];
            while (t < seg[1] - 1e-12) {
                int i = Math.min(n - 1, (int) Math.floor(t / intervalSeconds + 1e-12));
                double segEnd = Math.min(seg[1], (i + 1) * intervalSeconds);
                if (segEnd <= t) {
                    segEnd = seg[1];
                }
                bytes[i] += seg[2] * (segEnd - t);
                t = segEnd;
            }
        }
        double full = network.capacity(port) * intervalSeconds;
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            u[i] = Math.min(1, bytes[i] / full);
        }
        return u;
    }
}
