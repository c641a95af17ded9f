package io.saba.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.linux.RootAssumptions;
import io.saba.process.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Up, idempotent up, refusal of a different shape, status, traffic across the bridge, down. Needs root. */
class TestbedTest {
    private static final String NAME = "jt-bed";
    private final ProcessRunner sh = new ProcessRunner();
    private final Testbed testbed = new Testbed(sh);

    @BeforeEach
    void clean() {
        RootAssumptions.assumeNetnsRoot("tc", "ethtool", "iperf3");
        testbed.down(NAME);
    }

    @AfterEach
    void down() {
        testbed.down(NAME);
    }

    @Test
    void comesUpIdempotentlyCarriesTrafficAndGoesDown() throws Exception {
        TestbedSpec spec = TestbedSpec.of(NAME, 3, 50_000_000L);
        Path topo = testbed.up(spec);
        assertEquals(List.of("saba-jt-bed-h1", "saba-jt-bed-h2", "saba-jt-bed-h3", "saba-jt-bed-sw"),
                testbed.namespaces(NAME).stream().sorted().toList());
        assertEquals("10.77.0.3", new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(topo.toFile())
                .get("hosts").get(2).get("addresses").get(0).asText(), "h3's address in the topology file");
        assertEquals(topo, testbed.up(spec), "a second up of the same shape is a no-op");
        IllegalStateException other = assertThrows(IllegalStateException.class,
                () -> testbed.up(TestbedSpec.of(NAME, 4, 50_000_000L)));
        assertTrue(other.getMessage().contains("testbed down"), other.getMessage());

        String status = testbed.status(NAME);
        assertTrue(status.contains("h2   10.77.0.2") && status.contains("class htb 1:10")
                && status.contains("TCP cubic"), status);
        for (String host : List.of("h1", "h3")) {
            assertEquals("cubic", sh.check(Testbed.inNode(spec, host, List.of("sysctl", "-n",
                    "net.ipv4.tcp_congestion_control"))).strip(), "the host runs the spec's TCP, not the machine's");
        }
        String sw = sh.check(Testbed.inNode(spec, "sw", List.of("tc", "class", "show", "dev", "p1")));
        assertTrue(sw.contains("rate 50Mbit ceil 50Mbit"), sw);

        // One short transfer h2 → h1 across the bridge: addresses, veths and the bridge work, and the link
        // rate holds (well below the veth's native speed).
        Process server = new ProcessBuilder(Testbed.inNode(spec, "h1", List.of("iperf3", "-s", "-1", "-p", "5299")))
                .redirectErrorStream(true).start();
        try {
            String out = "";
            for (int i = 0; i < 50 && !out.contains("Mbits/sec"); i++) {
                Thread.sleep(100);
                out = sh.run(Testbed.inNode(spec, "h2", List.of("iperf3", "-c", "10.77.0.1", "-p", "5299", "-t", "2",
                        "-f", "m"))).stdout();
            }
            assertTrue(out.contains("receiver"), out);
            String receiver = out.lines().filter(l -> l.contains("receiver")).findFirst().orElseThrow();
            double mbps = Double.parseDouble(receiver.replaceAll(".*\\s([0-9.]+) Mbits/sec.*", "$1"));
            assertTrue(mbps > 20 && mbps <= 50, "throughput " + mbps + " Mbit/s on a 50 Mbit/s link");
        } finally {
            server.destroy();
        }

        // backend-options {testbed: NAME}: the backend finds the testbed's ports from what up saved.
        try (var backend = io.saba.controller.fabric.linux.LinuxBackendOptions.create(java.util.Map.of("testbed", NAME))) {
            var port = new io.saba.core.alloc.PortId("sw", 2);
            var r = backend.apply(List.of(new io.saba.core.alloc.PortAllocation(port, java.util.Map.of(1, 0, 2, 1),
                    new double[] {0.7, 0.3}, java.util.Map.of())));
            assertTrue(r.ok(), r.toString());
            String p2 = sh.check(Testbed.inNode(spec, "sw", List.of("tc", "class", "show", "dev", "p2")));
            assertTrue(p2.contains("1:20") && p2.contains("rate 35Mbit"), p2);
        }
        String p2 = sh.check(Testbed.inNode(spec, "sw", List.of("tc", "class", "show", "dev", "p2")));
        assertFalse(p2.contains("1:20"), "closing the backend gave the port back: " + p2);

        List<String> removed = testbed.down(NAME);
        assertEquals(4, removed.size());
        assertTrue(testbed.namespaces(NAME).isEmpty());
        assertFalse(Files.exists(topo));
        assertTrue(testbed.down(NAME).isEmpty(), "down is idempotent");
    }

    @Test
    void aTcpTheMachineLacksIsRefusedByNameAndNothingIsLeft() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> testbed.up(new TestbedSpec(NAME, 2, 10_000_000L, "10.77.0", "nosuchtcp")));
        assertTrue(e.getMessage().contains("'nosuchtcp' is not available"), e.getMessage());
        assertEquals(List.of(), testbed.namespaces(NAME));
    }

    @Test
    void aFailureHalfWayRemovesWhatWasBuilt() {
        // The third host's veth cannot be created: up must fail naming the command, and leave nothing behind.
        Testbed failing = new Testbed((command, stdin) -> String.join(" ", command).contains("link add p3 ")
                ? new io.saba.process.CommandResult(command, 2, "", "RTNETLINK answers: injected")
                : sh.run(command, stdin));
        io.saba.process.CommandException e = assertThrows(io.saba.process.CommandException.class,
                () -> failing.up(TestbedSpec.of(NAME, 4, 10_000_000L)));
        assertTrue(e.getMessage().contains("link add p3") && e.getMessage().contains("exited 2")
                && e.getMessage().contains("injected"), e.getMessage());
        assertEquals(List.of(), testbed.namespaces(NAME));
        assertFalse(Files.exists(TestbedSpec.stateDir(NAME).resolve("topology.yaml")));
    }
}
