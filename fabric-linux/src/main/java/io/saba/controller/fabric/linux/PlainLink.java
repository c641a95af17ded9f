package io.saba.controller.fabric.linux;

import io.saba.process.CommandRunner;

/**
 * A device shaped to its link rate with a single FIFO class: the first three nodes of the backend's tree and
 * nothing else. The testbed puts this on every link so that a throttled veth is a real bottleneck and the
 * backend can later add Saba's classes to it (and take them away again) without touching the rate limit.
 */
public final class PlainLink {
    private PlainLink() {
    }

    /**
     * Installs (or resets to) the plain link-rate shape; removes any Saba classes and filters present. Throws
     * IllegalStateException naming the failing tc command.
     */
    public static void install(CommandRunner shell, LinuxPort port) {
        String error = TcBatch.run(shell, port.namespace(), TcDevice.converge(port.device(),
                TcDevice.State.read(port, shell), HtbPlan.baseline(port.linkRateBps())));
        if (error != null) {
            throw new IllegalStateException("plain link on " + port + ": " + error);
        }
    }

    /** The device's HTB classes in one line each (for status output). */
    public static String describe(CommandRunner shell, LinuxPort port) {
        return shell.check(port.tc("class", "show", "dev", port.device())).strip();
    }
}
