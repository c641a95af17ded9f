package io.saba.harness.sim.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ten HiBench-like workloads of the testbed campaign, as calibration data.
 *
 * <p>Targets (paper §2 Fig. 1a, §4.2 Fig. 5; ORACLES.md): LR 1.3x / 3.4x at 75 / 25 %; SQL ≈1.0 / 1.2 / 2.2x at
 * 75 / 25 / 10 %; PR 1.4x and Sort 1.1x at 25 %; WC ≈1.0x at 75 %; mean 2.1x at 25 %; ranking RF ≥ LR &gt; GBT
 * &gt; SVM &gt; NI &gt; NW &gt; PR, SQL, WC, Sort. Values the paper does not give (RF, GBT, SVM, NI, NW, WC at
 * 25 %) are chosen to keep that ranking and that mean (they sum with the given ones to 21.0). Overlap of shuffle
 * and compute gives SQL its knee (flat to 25 %, steep below) exactly, and gives PR, WC, Sort, NW a similar flat
 * top (PR: 310 s at 75 % vs 427 s at 25 % in the paper, 1.4x here): they move many bytes but hide them. Profiled run times are plausible HiBench "large" times on 8
 * nodes; only their ratios matter to speedups.
 *
 * <p>Known miss: LR's 10 % point. The paper's LR slows 3.4x at 25 % but only 4.5x at 10 %, concave in 1/b; a job
 * made of compute and bandwidth-bound transfers is convex in 1/b, so we match 75 % and 25 % and get 8.2x at 10 %.
 */
public final class HibenchCatalog {
    /** Nodes the testbed workloads are profiled on (paper §8.2). */
    public static final int PROFILED_NODES = 8;

    private static final List<WorkloadCalibration> TABLE = List.of(
            //                       name         T1(s)  s       o      runs
            new WorkloadCalibration("lr", 150, 0.800, 0.00, 10),
            new WorkloadCalibration("rf", 200, 0.867, 0.00, 8),
            new WorkloadCalibration("gbt", 120, 0.533, 0.00, 10),
            new WorkloadCalibration("svm", 180, 0.467, 0.00, 10),
            new WorkloadCalibration("nutchindexing", 200, 0.400, 0.30, 3),
            new WorkloadCalibration("nweight", 240, 0.3625, 0.50, 6),
            new WorkloadCalibration("pagerank", 280, 0.300, 0.80, 10),
            new WorkloadCalibration("sql", 150, 1.0 / 6, 1 - 1.2 + 4.0 / 6, 3),
            new WorkloadCalibration("wordcount", 120, 0.200, 0.65, 2),
            new WorkloadCalibration("sort", 160, 0.250, 0.90, 2));

    private HibenchCatalog() {
    }

    public static List<WorkloadCalibration> calibrations() {
        return TABLE;
    }

    /** Workload specs by name, in table order, for a network with the given host line rate. */
    public static Map<String, WorkloadSpec> specs(double lineRate) {
        Map<String, WorkloadSpec> m = new LinkedHashMap<>();
        for (WorkloadCalibration c : TABLE) {
            m.put(c.name(), c.toSpec(PROFILED_NODES, lineRate));
        }
        return m;
    }
}
