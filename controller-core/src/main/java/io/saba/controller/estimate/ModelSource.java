package io.saba.controller.estimate;

import java.util.Locale;

/** Where the model a workload's applications are allocated with comes from (shown on the status pages). */
public enum ModelSource {
    /** The sensitivity table's entry. */
    PROFILED,
    /** The default model: the workload has no table entry and no estimate in force. */
    DEFAULT,
    /** The online estimate alone ({@code sensitivity: online}). */
    ESTIMATED,
    /** The table's or the default model updated by the observations ({@code sensitivity: blended}). */
    BLENDED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
