package io.saba.harness.sim.sharing;

import java.util.Arrays;
import java.util.List;

/**
 * Rates for flow groups crossing many ports, each port dividing its capacity by its own {@link PortSchedule}.
 *
 * <p>With per-port weights there is no single "weighted max-min" to fill progressively: a group may be favoured
 * at one port and not at the next. We therefore define the outcome as the fixed point at which every port's
 * allocation, computed with each group's demand capped by what the <em>other</em> ports give it, is consistent;
 * a group's rate is the minimum over its ports. Ports serving their queues work-conservingly (leftover to the
 * others) this is the fluid steady state of weighted round robin plus end-to-end rate control. With a single
 * queue per port the fixed point is per-flow max-min fairness (checked against {@link ProgressiveFilling} in
 * tests).
 *
 * <p>A port that grants a group its whole demand reports no limit for it; only ports that cut a group below its
 * demand constrain it elsewhere (the advertised-rate idea of distributed max-min algorithms). Iteration is
 * Gauss-Seidel over ports: each port recomputes with the latest demands. It starts from
 * unconstrained demands and stops when no rate moves by more than a relative 1e-9, or after a bound of sweeps
 * (the last sweep's minimum is always feasible because each port never hands out more than its capacity).
 */
public final class PortFixedPointSharing {
    private static final int MAX_SWEEPS = 400;
    private static final double TOLERANCE = 1e-9;

    private PortFixedPointSharing() {
    }

    private static void rescan(int g, int[][] wherePort, int[][] whereSlot, double[][] offer, double[] min1,
                               double[] min2, int[] argMin) {
        double a = Double.POSITIVE_INFINITY;
        double b = Double.POSITIVE_INFINITY;
        int at = -1;
        for (int j = 0; j < wherePort[g].length; j++) {
            double o = offer[wherePort[g][j]][whereSlot[g][j]];
            if (o < a) {
                b = a;
                a = o;
                at = wherePort[g][j];
            } else if (o < b) {
                b = o;
            }
        }
        min1[g] = a;
        min2[g] = b;
        argMin[g] = at;
    }

    private static boolean same(double a, double b) {
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            return a == b;
        }
        return Math.abs(a - b) <= TOLERANCE * Math.max(1e-12, Math.abs(a));
    }

    /**
     * @param caps  per-flow rate cap of each group (its own sending limit); {@code Double.POSITIVE_INFINITY} if
     *              none
     * @param ports the ports and how they are shared
     * @return per-flow rate of each group
     */
    public static double[] solve(double[] caps, List<PortLoad> ports) {
        int n = caps.length;
        int m = ports.size();
        // alloc[p][k]: what port p gives its k-th group per flow; start optimistic.
        // alloc[p][k]: what port p gives its k-th group per flow; offer[p][k]: the same, or +∞ when the port
        // granted the whole demand (it is not what limits the group, so it must not hold the group back
        // elsewhere: reporting a demand-capped allocation as a limit would let two ports lock each other low).
        double[][] alloc = new double[m][];
        double[][] offer = new double[m][];
        for (int p = 0; p < m; p++) {
            alloc[p] = new double[ports.get(p).groups().length];
            Arrays.fill(alloc[p], Double.POSITIVE_INFINITY);
            offer[p] = alloc[p].clone();
        }
        // where[g] = list of (port, slot) pairs, flattened
        int[][] wherePort = new int[n][];
        int[][] whereSlot = new int[n][];
        int[] count = new int[n];
        for (PortLoad pl : ports) {
            for (int g : pl.groups()) {
                count[g]++;
            }
        }
        for (int g = 0; g < n; g++) {
            wherePort[g] = new int[count[g]];
            whereSlot[g] = new int[count[g]];
        }
        Arrays.fill(count, 0);
        for (int p = 0; p < m; p++) {
            int[] gs = ports.get(p).groups();
            for (int k = 0; k < gs.length; k++) {
                int g = gs[k];
                wherePort[g][count[g]] = p;
                whereSlot[g][count[g]] = k;
                count[g]++;
            }
        }
        double[] rate = new double[n];
        // Each group's smallest and second-smallest offer (and where the smallest is), kept current as offers
        // change, so "min over the other ports" is O(1): a sweep stays linear in the number of (port, group) pairs
        // (~10^5 on the 1,944-server cluster) while keeping Gauss-Seidel's convergence (Jacobi can 2-cycle).
        double[] min1 = new double[n];
        double[] min2 = new double[n];
        int[] argMin = new int[n];
        for (int g = 0; g < n; g++) {
            rescan(g, wherePort, whereSlot, offer, min1, min2, argMin);
        }
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean stable = true;
            for (int p = 0; p < m; p++) {
                PortLoad pl = ports.get(p);
                int[] gs = pl.groups();
                double[] demand = new double[gs.length];
                for (int k = 0; k < gs.length; k++) {
                    int g = gs[k];
                    double d = Math.min(caps[g], argMin[g] == p ? min2[g] : min1[g]);
                    // Not capped at this port's capacity: a demand equal to what the port gives would read as
                    // "granted in full" and hide that this port is the limit.
                    demand[k] = d;
                }
                double[] fresh = pl.schedule().allocate(pl.capacity(), pl.multiplicity(), demand);
                for (int k = 0; k < gs.length; k++) {
                    double o = fresh[k] >= demand[k] * (1 - 1e-12) ? Double.POSITIVE_INFINITY : fresh[k];
                    if (!same(fresh[k], alloc[p][k]) || !same(o, offer[p][k])) {
                        stable = false;
                    }
                    double old = offer[p][k];
                    offer[p][k] = o;
                    if (o != old) {
                        int g = gs[k];
                        if (o < min1[g]) {
                            if (argMin[g] != p) {
                                min2[g] = min1[g];
                            }
                            min1[g] = o;
                            argMin[g] = p;
                        } else if (argMin[g] != p && o < min2[g]) {
                            min2[g] = o;
                        } else if (argMin[g] == p || old <= min2[g]) {
                            rescan(g, wherePort, whereSlot, offer, min1, min2, argMin);
                        }
                    }
                }
                alloc[p] = fresh;
            }
            if (stable) {
                break;
            }
        }
        for (int g = 0; g < n; g++) {
            double r = caps[g];
            for (int j = 0; j < wherePort[g].length; j++) {
                r = Math.min(r, alloc[wherePort[g][j]][whereSlot[g][j]]);
            }
            rate[g] = r;
        }
        for (int g = 0; g < n; g++) {
            if (Double.isInfinite(rate[g])) {
                rate[g] = 0; // a group crossing no port and uncapped: nothing to do, treat as idle
            }
        }
        return rate;
    }
}
