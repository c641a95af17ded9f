package io.saba.controller.fabric.linux;

import io.saba.controller.shell.CommandRunner;

/**
 * A device shaped to its link rate with a single FIFO class: the first three nodes of the backend's tree and
 * nothing else. The testbed puts this on every link so that a throttled veth is a real bottleneck and the
 * backend can later add Saba's classes to it (and take them away again) without touching the rate limit.
 */
public final class PlainLink {
    private PlainLink() {
    }

    /** Installs (or resets to) the plain link-rate shape; removes any Saba classes and filters present. */
    public static void install(CommandRunner shell, LinuxPort port) {
        TcDevice dev = new TcDevice(port, shell);
        if (!dev.hasHtbRoot()) {
            dev.installRoot(port.linkRateBps());
        }
        dev.converge(HtbPlan.baseline(port.linkRateBps()));
    }

    /** The device's HTB classes in one line each (for status output). */
    public static String describe(CommandRunner shell, LinuxPort port) {
        return shell.check(port.tc("class", "show", "dev", port.device())).strip();
    }
}
