package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.process.CommandResult;
import io.saba.process.Host;
import io.saba.process.ProcessRunner;
import java.util.List;

/** Skips a test, saying why, unless it can build namespaces and run the given tools (CI runs as root). */
public final class RootAssumptions {
    private RootAssumptions() {
    }

    /** @param tools extra binaries the test runs, looked up on the PATH */
    public static void assumeNetnsRoot(String... tools) {
        ProcessRunner sh = new ProcessRunner();
        String uid = Host.uid(sh);
        skipUnless(uid.equals("0"), "not root (uid " + uid + "): network namespaces and tc need root; CI runs as root");
        CommandResult ns = sh.run(List.of("ip", "netns", "list"));
        skipUnless(ns.ok(), "`ip netns` unavailable (install iproute2): " + ns.stderr().strip());
        for (String tool : tools) {
            skipUnless(Host.onPath(tool), tool + " is not installed (add its Debian package to .ci/run)");
        }
    }

    private static void skipUnless(boolean ok, String why) {
        if (!ok) {
            System.out.println("SKIPPED: " + why);
        }
        assumeTrue(ok, why);
    }
}
