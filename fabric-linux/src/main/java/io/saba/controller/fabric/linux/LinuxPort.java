package io.saba.controller.fabric.linux;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a Saba port lives on Linux: a network device, in a named network namespace or the backend's own.
 *
 * @param namespace   network namespace name as {@code ip netns} knows it, or {@code null} for the current one
 * @param device      the egress device (a switch namespace's veth toward a host, or a host's own NIC)
 * @param linkRateBps the link rate the HTB root enforces, bits per second
 */
public record LinuxPort(String namespace, String device, long linkRateBps) {
    public LinuxPort {
        if (device == null || device.isBlank()) {
            throw new IllegalArgumentException("a Linux port needs a device name");
        }
        if (linkRateBps <= 0) {
            throw new IllegalArgumentException("link rate of " + device + " must be > 0 bit/s, got " + linkRateBps);
        }
        if (namespace != null && namespace.isBlank()) {
            namespace = null;
        }
    }

    /** {@code tc [-n NS] ARGS...}. */
    public List<String> tc(String... args) {
        List<String> c = new ArrayList<>();
        c.add("tc");
        if (namespace != null) {
            c.add("-n");
            c.add(namespace);
        }
        c.addAll(List.of(args));
        return c;
    }

    @Override
    public String toString() {
        return (namespace == null ? "" : namespace + "/") + device + "@" + linkRateBps + "bit";
    }
}
