package io.saba.controller.alloc;

import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.EqualWeights;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.MinSlowdownDecision;
import io.saba.core.alloc.PortWeightDecision;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.corun.CorunProfile;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolver;
import java.util.Locale;
import java.util.function.Function;

/**
 * The controller's allocation pipeline, built in one place so that the controller and the harness's simulator run
 * the same one: core's {@link Allocator} (levels per workload, or per application with {@code level-per:
 * application}; a port's levels into its queues) with a per-port weight decision, Eq. 2's or the co-run predictor's
 * behind the do-no-harm rule (or, as a baseline, equal weights).
 */
public final class AllocationPipeline {
    /** The relative predicted gain a co-run plan needs by default (over the equal split and the port's current). */
    public static final double DEFAULT_CORUN_MARGIN = 0.03;

    private AllocationPipeline() {
    }

    /** How a port's weights are chosen. */
    public enum Allocation {
        /** Eq. 2 on the table's static slowdown curves (the paper's method). */
        EQ2,
        /** The co-run predictor on the table's traffic records, guarded by the do-no-harm rule. */
        CORUN,
        /**
         * Not Saba's decision but the baseline it is measured against: every application on a port the same share
         * ({@link EqualWeights}), on Saba's levels and queues.
         */
        FAIR;

        /** {@code eq2}, {@code corun} or {@code fair}, any case; anything else is refused naming {@code where}. */
        public static Allocation parse(String s, String where) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "eq2" -> EQ2;
                case "corun" -> CORUN;
                case "fair" -> FAIR;
                default -> throw new IllegalArgumentException(where + " must be eq2, corun or fair, got '" + s + "'");
            };
        }
    }

    /**
     * A pipeline with Eq. 2 per port, or with {@link Allocation#CORUN} the co-run predictor's weights where the
     * table has traffic records for every application on a port.
     *
     * @param allocation        how ports' weights are chosen
     * @param solver            the Eq. 2 solver (also the co-run allocation's fallback and starting point)
     * @param profileOfWorkload the co-run profile of a workload, or null (asked at each decision, so a reloaded
     *                          table takes effect)
     * @param levels            priority levels, including the default level 0
     * @param cSaba             what Saba's weights on a port sum to
     * @param corunMargin       the do-no-harm margin of {@link CorunWeighting}
     */
    public static Allocator build(Allocation allocation, PortSolver solver,
                                  Function<String, CorunProfile> profileOfWorkload, int levels, double cSaba,
                                  double corunMargin) {
        return build(allocation, solver, profileOfWorkload, levels, cSaba, corunMargin, new CorunSearches());
    }

    /** As above, remembering the co-run weight searches in {@code searches} (shared across pipelines). */
    public static Allocator build(Allocation allocation, PortSolver solver,
                                  Function<String, CorunProfile> profileOfWorkload, int levels, double cSaba,
                                  double corunMargin, CorunSearches searches) {
        return build(allocation, solver, profileOfWorkload, levels, cSaba, corunMargin, searches, LevelMode.WORKLOAD);
    }

    /** As above, placing {@code levelMode}'s members on levels (the controller's {@code level-per}). */
    public static Allocator build(Allocation allocation, PortSolver solver,
                                  Function<String, CorunProfile> profileOfWorkload, int levels, double cSaba,
                                  double corunMargin, CorunSearches searches, LevelMode levelMode) {
        PortWeightDecision eq2 = new MinSlowdownDecision(solver);
        PortWeightDecision weights = switch (allocation) {
            case EQ2 -> eq2;
            case CORUN -> new CorunWeighting(eq2, profileOfWorkload, cSaba, MinSlowdownSolver.DEFAULT_FLOOR,
                    corunMargin, searches);
            case FAIR -> new EqualWeights();
        };
        return new Allocator(weights, new LevelAssigner(levels), cSaba, levelMode);
    }
}
