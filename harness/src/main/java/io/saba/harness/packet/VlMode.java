package io.saba.harness.packet;

import java.util.Locale;

/** How the packet-level fabric separates applications: the three modes compared on one placement. */
public enum VlMode {
    /** Every application on SL 0 → VL 0: one input buffer per port, shared, head-of-line blocking between them. */
    SHARED("one shared VL (baseline)"),
    /**
     * Every application on a service level of its own; on each port the SLs present get VLs 1…V−1 in turn (a VL each
     * while the port has enough), weighted equally.
     */
    VL_PER_APPLICATION("a VL per application, equal weights"),
    /**
     * Saba: the controller's pipeline plans levels (SL = level) and each port's level → queue map and weights; they
     * are written as the InfiniBand backend writes them (SL-to-VL = queue, VL arbitration table from the weights).
     */
    SABA("Saba's levels and weights");

    private final String description;

    VlMode(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The name on the command line: shared, vl-per-app, saba. */
    public String cliName() {
        return switch (this) {
            case SHARED -> "shared";
            case VL_PER_APPLICATION -> "vl-per-app";
            case SABA -> "saba";
        };
    }

    public static VlMode parse(String s) {
        for (VlMode m : values()) {
            if (m.cliName().equals(s.toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown VL mode '" + s + "': shared, vl-per-app or saba");
    }
}
