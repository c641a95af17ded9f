package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import org.junit.jupiter.api.Test;

/** The testbed limiter on real namespaces and HTB classes (root only; skipped with the reason otherwise). */
class TestbedRateLimiterTest {
    @Test
    void setsEveryHostsEgressAndResets() {
        ProcessRunner shell = new ProcessRunner();
        assumeTrue(io.saba.process.Host.root(),
                "needs root (network namespaces, tc)");
        assumeTrue(shell.run(java.util.List.of("ip", "netns", "list")).ok(), "needs iproute2 with netns");
        Testbed tb = new Testbed(shell);
        TestbedSpec spec = new TestbedSpec("prl", 2, 100_000_000L, "10.79.0");
        tb.up(spec);
        try {
            TestbedRateLimiter l = new TestbedRateLimiter(spec, shell);
            l.apply(25);
            for (int h = 1; h <= 2; h++) {
                assertTrue(l.hostClass(h).contains("rate 25Mbit ceil 25Mbit"), l.hostClass(h));
            }
            l.reset();
            assertTrue(l.hostClass(1).contains("rate 100Mbit ceil 100Mbit"), l.hostClass(1));
            assertTrue(l.fabric().contains("100 Mbit/s links"), l.fabric());
        } finally {
            tb.down("prl");
        }
    }
}
