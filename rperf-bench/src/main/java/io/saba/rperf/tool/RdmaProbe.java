package io.saba.rperf.tool;

import java.io.File;
import java.util.Arrays;
import java.util.Optional;

/**
 * Says why an RDMA run cannot happen here. RPerf's real method needs verbs (RC SENDs, a loopback QP, polling
 * the CQ). Two things are required: a device, and a measuring path over it. This build has the second for
 * TCP only: the client library reaches librdmacm through JNA, but only to set a connection's service level
 * ({@code io.saba.client.RdmaTagging}), not to post and time messages. A run that did not happen is a
 * failure the caller must see, never a skip reported as success, and the reason names what is missing.
 */
public final class RdmaProbe {
    private final File sysClass;

    public RdmaProbe() {
        this(new File("/sys/class/infiniband"));
    }

    RdmaProbe(File sysClass) {
        this.sysClass = sysClass;
    }

    /** The RDMA devices the kernel lists, sorted; empty when there are none (or no RDMA stack at all). */
    public String[] devices() {
        String[] devices = sysClass.list();
        if (devices == null) {
            return new String[0];
        }
        Arrays.sort(devices);
        return devices;
    }

    /** Why an RDMA run cannot happen here; empty only if one could. */
    public Optional<String> cannotRun() {
        String[] devices = devices();
        if (devices.length == 0) {
            return Optional.of("no RDMA device (" + sysClass + " is missing or empty; no soft-RoCE either); "
                    + "use --transport tcp");
        }
        return Optional.of("RDMA device(s) " + String.join(",", devices) + " present, but rperf has no RDMA "
                + "generators yet: measuring needs RC queue pairs that post SENDs and poll their completion "
                + "queue (libibverbs ibv_post_send/ibv_poll_cq), and the JNA binding to librdmacm in the client "
                + "library only sets a connection's service level; use --transport tcp");
    }
}
