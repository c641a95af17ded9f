package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.process.CommandResult;
import io.saba.process.ProcessRunner;
import java.util.List;

/** Skips a test, saying why, unless it can build namespaces and run the given tools (CI runs as root). */
public final class RootAssumptions {
    private RootAssumptions() {
    }

    /** @param tools extra binaries the test runs, looked up on the PATH */
    public static void assumeNetnsRoot(String... tools) {
        ProcessRunner sh = new ProcessRunner();
        CommandResult id = sh.run(List.of("id", "-u"));
        skipUnless(id.ok() && id.stdout().strip().equals("0"), "not root (uid " + id.stdout().strip()
                + "): network namespaces and tc need root; CI runs as root");
        CommandResult ns = sh.run(List.of("ip", "netns", "list"));
        skipUnless(ns.ok(), "`ip netns` unavailable (install iproute2): " + ns.stderr().strip());
        for (String tool : tools) {
            CommandResult v = sh.run(List.of("sh", "-c", "command -v " + tool));
            skipUnless(v.ok(), tool + " is not installed (add its Debian package to .ci/run)");
        }
    }

    private static void skipUnless(boolean ok, String why) {
        if (!ok) {
            System.out.println("SKIPPED: " + why);
        }
        assumeTrue(ok, why);
    }
}
