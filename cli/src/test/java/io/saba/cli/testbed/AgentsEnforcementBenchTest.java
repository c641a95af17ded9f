package io.saba.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.bench.AgentsEnforcementBench;
import io.saba.cli.SabaCli;
import io.saba.process.Host;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * {@code saba testbed enforcement --backend agents}: a wrong backend is one line and exit 2; a small run (a controller
 * in h1's namespace, a {@code saba agent} process in each of h2, h3 and h4) sees every event's change in the kernel of
 * every host's NIC, and after every event each NIC holds the classes of the controller's plan for it (the benchmark
 * throws otherwise). No timing is asserted: the figures are the benchmark's.
 */
class AgentsEnforcementBenchTest {
    @Test
    void aWrongBackendIsOneLineAndExitTwo() {
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        java.io.PrintStream before = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true));
        int exit;
        try {
            exit = cl.execute("testbed", "enforcement", "--backend", "ovs");
        } finally {
            System.setErr(before);
        }
        String said = err + captured.toString();
        assertEquals(2, exit, said);
        assertEquals(1, said.strip().lines().count(), said);
        assertTrue(said.contains("--backend"), said);
    }

    @Test
    void everyEventReachesEveryHostsNicThroughItsAgent() throws Exception {
        assumeTrue(Host.root() && Host.onPath("tc") && Host.onPath("ip") && Host.onPath("ethtool"),
                "needs root, tc, ip and ethtool (CI runs as root)");
        AgentsEnforcementBench.Result r = AgentsEnforcementBench.run(new AgentsEnforcementBench.Settings("agtb", 3,
                100_000_000L, "10.84.0", 4, EnforcementCommand.sabaCommand()), System.out);
        AgentsEnforcementBench.print(r, System.out);
        assertEquals(3, r.hosts());
        assertEquals(4, r.perEvent().getTotalCount(), "a latency for every event");
        assertEquals(4L * 3, r.perHost().getTotalCount(), "every event witnessed on every host's NIC");
        assertEquals(4 * 3, r.checkedHosts(), "every host's NIC held its plan after every event");
        assertTrue(r.agentsCpuNanos() > 0, "the agents' CPU time was read");
    }
}
