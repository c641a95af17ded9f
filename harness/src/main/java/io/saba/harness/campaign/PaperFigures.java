package io.saba.harness.campaign;

import java.util.List;
import java.util.Map;

/** The paper's numbers our runs are printed beside (ORACLES.md; S = Saba paper §8). */
public final class PaperFigures {
    private PaperFigures() {
    }

    /** Fig. 8a per-workload speedups the paper states in its text (others are only drawn). */
    public static final Map<String, Double> FIG8A = Map.of("rf", 3.9, "lr", 3.6, "sort", 0.95, "pagerank", 0.99);
    public static final double FIG8_MEAN = 1.88;
    public static final double FIG8B_MIN = 0.94;
    public static final double FIG8B_MAX = 2.92;
    public static final int FIG8B_SLOWER_SETUPS = 2;

    /** Setups in the paper's Fig. 8 campaign. */
    public static final int FIG8_SETUPS = 500;

    /**
     * What the paper gives of its Fig. 8b CDF, to draw beside ours: its minimum, its 2 of 500 setups below 1x and its
     * maximum as points, its mean as a line (the paper gives no more of its curve), and 1x for orientation.
     */
    public static List<Plots.Reference> fig8bReferences() {
        int n = FIG8_SETUPS;
        return List.of(
                Plots.Reference.points(String.format(java.util.Locale.ROOT,
                                "paper (%d setups): min %.2fx, %d below 1x, max %.2fx", n, FIG8B_MIN,
                                FIG8B_SLOWER_SETUPS, FIG8B_MAX),
                        List.of(FIG8B_MIN, 1.0, FIG8B_MAX), List.of(1.0 / n, (double) FIG8B_SLOWER_SETUPS / n, 1.0)),
                Plots.Reference.vertical(String.format(java.util.Locale.ROOT, "paper mean %.2fx", FIG8_MEAN),
                        FIG8_MEAN),
                Plots.Reference.vertical("no change (1x)", 1.0));
    }

    /** Fig. 9a: dataset scale → mean speedup. */
    public static final Map<Double, Double> FIG9A = Map.of(0.1, 1.33, 1.0, 1.54, 10.0, 1.40);
    /** Fig. 9b: runtime nodes / profiled nodes → mean speedup (1x is Fig. 9a's 1.54). */
    public static final Map<Double, Double> FIG9B = Map.of(0.5, 1.42, 1.0, 1.54, 2.0, 1.34, 3.0, 1.26, 4.0, 1.09);
    /** Fig. 9c: polynomial degree → mean speedup. */
    public static final Map<Integer, Double> FIG9C = Map.of(1, 1.27, 2, 1.42, 3, 1.54);

    /** Fig. 10 and 11: scheme → mean speedup over the baseline at 1,944 servers. */
    public static final Map<String, Double> FIG10 = Map.of("saba", 1.27, "ideal-max-min", 1.14, "homa", 1.12,
            "sincronia", 1.19);
    public static final Map<String, Double> FIG11A = Map.of("centralised", 1.27, "distributed", 1.23);
    public static final Map<String, Double> FIG11B = Map.of("2", 1.12, "8", 1.27, "unlimited", 1.33);
}
