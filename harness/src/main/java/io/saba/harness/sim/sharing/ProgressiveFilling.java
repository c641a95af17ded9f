package io.saba.harness.sim.sharing;

import java.util.Arrays;
import java.util.List;

/**
 * Textbook weighted max-min fairness by progressive filling: raise every unfrozen group's per-flow rate in
 * proportion to its weight until some link saturates or a group hits its cap; freeze the groups there; repeat.
 *
 * <p>A group is a set of flows moving in lockstep; on each link it counts with its number of flows there
 * (multiplicity), so this is per-flow max-min. The per-flow-fair baseline (InfiniBand's congestion control,
 * idealised) is this with unit weights.
 */
public final class ProgressiveFilling {
    private ProgressiveFilling() {
    }

    /**
     * @param caps    per-flow cap of each group (infinite if none)
     * @param weights per-group weight (&gt; 0)
     * @param ports   links: capacity, groups and multiplicities (the schedule is ignored)
     * @return per-flow rate of each group
     */
    public static double[] solve(double[] caps, double[] weights, List<PortLoad> ports) {
        int n = caps.length;
        double[] rate = new double[n];
        boolean[] frozen = new boolean[n];
        double[] residual = new double[ports.size()];
        for (int p = 0; p < ports.size(); p++) {
            residual[p] = ports.get(p).capacity();
        }
        int unfrozen = n;
        while (unfrozen > 0) {
            // Largest common increment t (rate += weight·t) before a cap or a link binds.
            double t = Double.POSITIVE_INFINITY;
            for (int g = 0; g < n; g++) {
                if (!frozen[g]) {
                    t = Math.min(t, (caps[g] - rate[g]) / weights[g]);
                }
            }
            double[] slope = new double[ports.size()];
            for (int p = 0; p < ports.size(); p++) {
                PortLoad pl = ports.get(p);
                for (int k = 0; k < pl.groups().length; k++) {
                    int g = pl.groups()[k];
                    if (!frozen[g]) {
                        slope[p] += pl.multiplicity()[k] * weights[g];
                    }
                }
                if (slope[p] > 0) {
                    t = Math.min(t, residual[p] / slope[p]);
                }
            }
            if (Double.isInfinite(t)) {
                break; // remaining groups touch no link and have no cap
            }
            t = Math.max(0, t);
            for (int g = 0; g < n; g++) {
                if (!frozen[g]) {
                    rate[g] += weights[g] * t;
                }
            }
            boolean[] saturated = new boolean[ports.size()];
            for (int p = 0; p < ports.size(); p++) {
                residual[p] -= slope[p] * t;
                saturated[p] = slope[p] > 0 && residual[p] <= 1e-9 * ports.get(p).capacity();
            }
            int before = unfrozen;
            for (int g = 0; g < n; g++) {
                if (!frozen[g] && rate[g] >= caps[g] * (1 - 1e-12)) {
                    frozen[g] = true;
                    unfrozen--;
                }
            }
            for (int p = 0; p < ports.size(); p++) {
                if (saturated[p]) {
                    for (int g : ports.get(p).groups()) {
                        if (!frozen[g]) {
                            frozen[g] = true;
                            unfrozen--;
                        }
                    }
                }
            }
            if (unfrozen == before) {
                break; // numerical safety: nothing froze, avoid spinning
            }
        }
        for (int g = 0; g < n; g++) {
            if (Double.isInfinite(rate[g])) {
                rate[g] = 0;
            }
        }
        return rate;
    }

    /** Unit weights: plain per-flow max-min. */
    public static double[] solve(double[] caps, List<PortLoad> ports) {
        double[] w = new double[caps.length];
        Arrays.fill(w, 1.0);
        return solve(caps, w, ports);
    }
}
