package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.agents.controller.AgentsBackend;
import io.saba.controller.server.EmbeddedController;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.process.Host;
import io.saba.process.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code saba agent} and {@code saba agent restore} as an operator runs them. */
class AgentCommandTest extends InProcessCli {
    private static final String NS = "saba-jt-agentcli";

    @TempDir
    Path dir;

    @Test
    void aMalformedNicIsOneLineAndExitStatus2() {
        assertEquals(2, run("agent", "--controller", "127.0.0.1:1", "--nic", "eth0@fast", "--state-dir",
                dir.toString()));
        String e = errLine();
        assertTrue(e.startsWith("saba agent: --nic 'eth0@fast' is not [PORT=]DEV[@RATE]"), e);
    }

    @Test
    void helpListsTheOptionsAndRestore() {
        assertEquals(0, run("agent", "--help"));
        for (String option : List.of("--controller", "--host", "--nic", "--token-file", "--tls-trust", "--state-dir",
                "--lease-seconds", "--netns", "restore", "/var/lib/saba-agent")) {
            assertTrue(out.toString().contains(option), option + " in\n" + out);
        }
    }

    @Test
    void theControllerIsRequired() {
        assertEquals(2, run("agent", "--nic", "x@1gbit", "--state-dir", dir.toString()));
        assertEquals("saba agent: --controller HOST:PORT is required", errLine());
    }

    @Test
    void severalNicsWithoutPortsAndAZeroLeaseAreRefused() {
        assertEquals(2, run("agent", "--controller", "127.0.0.1:1", "--nic", "a@1gbit", "--nic", "b@1gbit",
                "--state-dir", dir.toString()));
        assertTrue(errLine().contains("with several NICs each needs its port, PORT=DEV"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("agent", "--controller", "127.0.0.1:1", "--nic", "a@1gbit", "--lease-seconds", "0",
                "--state-dir", dir.toString()));
        assertEquals("saba agent: --lease-seconds must be > 0, got 0", errLine());
    }

    @Test
    void restoreWithoutAStateDirectoryIsOneLine() {
        assertEquals(2, run("agent", "restore", "--state-dir", dir.resolve("none").toString()));
        assertEquals("saba agent restore: --state-dir " + dir.resolve("none") + ": no such directory", errLine());
    }

    @Test
    void restoreIsRefusedWhileAnAgentHoldsTheStateDirectory() {
        Path state = dir.resolve("held");
        try (io.saba.agents.host.HostAgent running = io.saba.agents.host.HostAgent.start(
                new io.saba.agents.host.AgentSettings(List.of("127.0.0.1:1"), "h1",
                        List.of(io.saba.agents.host.NicSpec.parse("saba-none0@1gbit")), null, state,
                        Duration.ofSeconds(30), null), new ProcessRunner())) {
            assertEquals(2, run("agent", "restore", "--state-dir", state.toString()));
            String e = errLine();
            assertTrue(e.startsWith("saba agent restore: --state-dir " + state + " is in use by another saba agent (pid "
                    + ProcessHandle.current().pid()), e);
        }
    }

    /** An agent process killed with -9 leaves its plan on the NIC; {@code saba agent restore} removes it. */
    @Test
    void restoreGivesBackWhatAKilledAgentLeft() throws Exception {
        ProcessRunner sh = new ProcessRunner();
        assumeTrue(Host.root() && Host.onPath("tc") && Host.onPath("ip"), "needs root, tc and ip (CI runs as root)");
        sh.run(List.of("ip", "netns", "del", NS));
        sh.check("ip", "netns", "add", NS);
        try {
            sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
            sh.check("ip", "-n", NS, "link", "set", "x", "up");
            AgentsBackend backend = new AgentsBackend(Duration.ofSeconds(2));
            Path state = dir.resolve("state");
            io.saba.core.topology.Topology t = io.saba.core.topology.Topology.builder().switchNode("s0", 2)
                    .host("h1").link("s0", 1, "h1", 1, 10).build();
            try (EmbeddedController c = EmbeddedController.builder().topology(
                    new io.saba.controller.topology.TopologyResolver(t, Map.of("h1", List.of("10.9.0.1"))))
                    .backend(backend, true).build()) {
                c.start();
                Process agent = SabaProcess.start(dir, dir.resolve("out"), dir.resolve("err"), "agent",
                        "--controller", c.target(), "--host", "h1", "--nic", "x@100mbit", "--state-dir",
                        state.toString(), "--netns", NS);
                try {
                    Awaitility.await("the agent connects").atMost(Duration.ofSeconds(20)).until(() -> {
                        assertTrue(agent.isAlive(), () -> "the agent exited: " + read(dir.resolve("err")));
                        return backend.agents().stream().anyMatch(a -> a.connected());
                    });
                    assertTrue(backend.apply(List.of(new PortAllocation(new PortId("h1", 1), Map.of(1, 0),
                            new double[] {0.5}, Map.of()))).ok());
                } finally {
                    agent.destroyForcibly();
                    agent.waitFor();
                }
            }
            assertTrue(sh.check("tc", "-n", NS, "qdisc", "show", "dev", "x").contains("htb"), "left behind");
            assertEquals(0, run("agent", "restore", "--state-dir", state.toString()), err.toString());
            assertTrue(out.toString().contains("the NICs of h1 hold nothing of Saba's"), out.toString());
            assertFalse(sh.check("tc", "-n", NS, "qdisc", "show", "dev", "x").contains("htb"),
                    sh.check("tc", "-n", NS, "qdisc", "show", "dev", "x"));
        } finally {
            sh.run(List.of("ip", "netns", "del", NS));
        }
    }

    /** A file's text, or why it cannot be read (for failure messages). */
    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }
}
