package io.saba.core.alloc;

import io.saba.core.solve.GroupSolution;

/**
 * The per-application fair baseline ({@code allocation: fair}): every application on a port gets the same share,
 * whatever its model, so each level's queue is weighted by how many applications it carries. It is what a fabric
 * with one fair-queued class per application gives, with Saba's levels and queues: the comparison that tells
 * separating the applications from weighting them. The objective is still the models' predicted slowdowns at those
 * shares, so the status pages can set it beside Eq. 2's.
 */
public final class EqualWeights implements PortWeightDecision {
    @Override
    public GroupSolution decide(PortDemand d, double capacity) {
        int groups = d.models().size();
        int apps = 0;
        for (int c : d.counts()) {
            apps += c;
        }
        double share = capacity / apps;
        double[][] values = new double[groups][];
        int[][] counts = new int[groups][];
        double objective = 0;
        for (int g = 0; g < groups; g++) {
            values[g] = new double[] {share};
            counts[g] = new int[] {d.counts()[g]};
            objective += d.counts()[g] * d.models().get(g).slowdown(share);
        }
        return new GroupSolution(values, counts, objective);
    }
}
