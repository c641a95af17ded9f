package io.saba.core.alloc;

import java.util.Locale;

/**
 * What the allocation pipeline places on priority levels, the members of a {@link LevelPlan}.
 *
 * <ul>
 *   <li>{@link #WORKLOAD}: the paper's way. Every application of a workload takes its workload's level, so on a
 *       port all of them share one queue, even where the port has queues nobody uses.</li>
 *   <li>{@link #APPLICATION}: each application is a member with its workload's model, and takes a level of its own
 *       while levels are free; only once they run out do applications share, first with an identical model (one
 *       workload), else with the nearest centroid. A port's levels are fitted into its queues by the same hierarchy,
 *       whose merges take identical models first: applications of one workload get separate queues where the port
 *       has room, one shared queue where it has not. Separate queues keep one application's bursts out of another's
 *       queue (the packet-level Fig. 8: a blind control that separates applications beat Saba's per-workload
 *       levels), while each application's weight stays what Eq. 2 gives it.</li>
 * </ul>
 */
public enum LevelMode {
    WORKLOAD,
    APPLICATION;

    /** {@code workload} or {@code application}, any case; anything else is refused naming {@code where}. */
    public static LevelMode parse(String s, String where) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "workload" -> WORKLOAD;
            case "application" -> APPLICATION;
            default -> throw new IllegalArgumentException(where + " must be workload or application, got '" + s + "'");
        };
    }

    /** The name in a configuration file: {@code workload} or {@code application}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
