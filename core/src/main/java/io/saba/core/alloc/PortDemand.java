package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One port's applications as a {@link PortWeightDecision} sees them: grouped by model (what Eq. 2 needs, and all a
 * port's state holds when hundreds of applications run a handful of workloads), and, when the caller has them, the
 * applications themselves with the group each belongs to.
 *
 * @param models     the distinct models on the port
 * @param counts     applications per model
 * @param apps       the applications, sorted by id; empty when only the groups are known (the overhead benchmark)
 * @param groupOfApp each application's group, in {@code apps} order
 * @param lambdaHint the port's previous multiplier ({@link GroupSolution#lambda()}), where the solver starts;
 *                   NaN for none. It changes the solver's steps, not its answer
 */
public record PortDemand(PortId port, List<SensitivityModel> models, int[] counts, List<AppAtPort> apps,
                         int[] groupOfApp, double lambdaHint) {
    /** A demand without a previous solution to start from. */
    public PortDemand(PortId port, List<SensitivityModel> models, int[] counts, List<AppAtPort> apps,
                      int[] groupOfApp) {
        this(port, models, counts, apps, groupOfApp, Double.NaN);
    }

    /** The groups alone. */
    public static PortDemand ofGroups(PortId port, List<SensitivityModel> models, int[] counts) {
        return ofGroups(port, models, counts, Double.NaN);
    }

    /** The groups alone, with the port's previous multiplier (NaN: none). */
    public static PortDemand ofGroups(PortId port, List<SensitivityModel> models, int[] counts, double lambdaHint) {
        return new PortDemand(port, models, counts, List.of(), new int[0], lambdaHint);
    }

    /**
     * Each application's weight in a solution: group g's k-th application (in {@code apps} order) takes
     * {@code solution.weight(g, k)}.
     */
    public Map<String, Double> weightsOf(GroupSolution solution) {
        double[] weights = weightArray(solution);
        String[] ids = new String[apps.size()];
        boolean sorted = true;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = apps.get(i).appId();
            sorted &= i == 0 || ids[i - 1].compareTo(ids[i]) < 0;
        }
        if (sorted) {
            return new AppWeights(ids, weights);
        }
        Map<String, Double> out = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            out.put(ids[i], weights[i]);
        }
        return out;
    }

    /** Each application's weight in a solution, in {@code apps} order (see {@link #weightsOf}). */
    double[] weightArray(GroupSolution solution) {
        double[] out = new double[apps.size()];
        int[] next = new int[models.size()];
        for (int i = 0; i < out.length; i++) {
            int g = groupOfApp[i];
            out[i] = solution.weight(g, next[g]++);
        }
        return out;
    }

    /** A solution giving each application the weight named for it (one run per application). */
    public GroupSolution solutionOf(Map<String, Double> weightOfApp, double objective) {
        double[][] values = new double[models.size()][];
        int[][] runs = new int[models.size()][];
        int[] next = new int[models.size()];
        for (int g = 0; g < models.size(); g++) {
            values[g] = new double[counts[g]];
            runs[g] = new int[counts[g]];
        }
        for (int i = 0; i < apps.size(); i++) {
            int g = groupOfApp[i];
            int k = next[g]++;
            Double w = weightOfApp.get(apps.get(i).appId());
            if (w == null) {
                throw new IllegalArgumentException("no weight for application " + apps.get(i).appId() + " on " + port);
            }
            values[g][k] = w;
            runs[g][k] = 1;
        }
        return new GroupSolution(values, runs, objective);
    }
}
