package io.saba.rperf.tool;

import java.io.File;
import java.util.Optional;

/**
 * Says whether an RDMA transport could run here. RPerf's real method needs verbs (RC SENDs, a loopback QP,
 * polling the CQ); without a device there is nothing to measure, and the tool must say so rather than
 * fall back silently to TCP.
 */
public final class RdmaProbe {
    private final File sysClass;

    public RdmaProbe() {
        this(new File("/sys/class/infiniband"));
    }

    RdmaProbe(File sysClass) {
        this.sysClass = sysClass;
    }

    /** Empty when a device exists; otherwise the reason to skip. */
    public Optional<String> skipReason() {
        String[] devices = sysClass.list();
        if (devices == null || devices.length == 0) {
            return Optional.of("no RDMA device (" + sysClass + " is missing or empty; no soft-RoCE either): "
                    + "the RDMA transport is skipped; use --transport tcp");
        }
        return Optional.of("RDMA device(s) " + String.join(",", devices) + " found, but this build has no verbs "
                + "binding (DiSNI/JNA not bundled): the RDMA transport is skipped; use --transport tcp");
    }
}
