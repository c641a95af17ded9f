package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** qperf itself on loopback: proves the side-by-side command can drive and parse it. */
class QperfLiveTest {
    @Test
    void qperfRunsAndParsesOnLoopback() throws Exception {
        assumeTrue(Qperf.binary().isPresent(), "SKIP: qperf not installed (.ci/run installs it)");
        int port = 19000 + (int) (ProcessHandle.current().pid() % 500);
        Process server = Qperf.startServer(port);
        try {
            Thread.sleep(300);
            Qperf.Figures f = Qperf.run("127.0.0.1", port, 64, 1);
            assertTrue(f.latencyUs() > 0, f.raw());
            assertTrue(f.bandwidthGbps() > 0, f.raw());
        } finally {
            server.destroy();
        }
    }
}
