package io.saba.controller.estimate;

import java.util.Locale;

/** Which model the allocator uses for a workload ({@code sensitivity:} in the configuration). */
public enum SensitivityMode {
    /** The table's model, or the default one for an unprofiled workload (the paper's Saba; estimates only show). */
    TABLE,
    /** The estimate alone once a workload has {@link LearnedModels#ONLINE_MIN_UNITS} units; until then the table's. */
    ONLINE,
    /** The table's (or default) model as a prior, updated by the observations as they accumulate. */
    BLENDED;

    /** {@code table}, {@code online} or {@code blended}, any case; anything else is refused naming {@code where}. */
    public static SensitivityMode parse(String s, String where) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "table" -> TABLE;
            case "online" -> ONLINE;
            case "blended" -> BLENDED;
            default -> throw new IllegalArgumentException(where + " must be table, online or blended, got '" + s + "'");
        };
    }

    /** The name the configuration uses. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
