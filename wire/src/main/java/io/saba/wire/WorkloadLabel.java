package io.saba.wire;

/**
 * The workload an application registers under, as both ends read it: a blank one is {@link #DEFAULT}, in every
 * client and in the controller (where live requests, journal replay and a group's log all pass), so no plan ever
 * sees a blank workload.
 */
public final class WorkloadLabel {
    /**
     * The workload of an application that names none, in every engine: a key no profile uses, so the controller
     * gives it its default model (unless the operator's table has an entry called {@code default}).
     */
    public static final String DEFAULT = "default";

    private WorkloadLabel() {
    }

    /** The workload trimmed, or {@link #DEFAULT} when null or blank. */
    public static String orDefault(String workload) {
        return workload == null || workload.isBlank() ? DEFAULT : workload.trim();
    }
}
