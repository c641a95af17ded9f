package io.saba.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackends;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller finds the Linux backend by name and reads the testbed's topology file (no root needed). */
class LinuxBackendWiringTest {
    @Test
    void backendLinuxIsFoundByName() {
        assertTrue(FabricBackends.providers().containsKey("linux"));
        try (FabricBackend b = FabricBackends.create("linux", Map.of("ports", "h1:0=eth0@1gbit", "c-saba", "0.9"))) {
            assertInstanceOf(LinuxTcBackend.class, b);
        }
    }

    @Test
    void backendOptionTestbedNamesEveryPortOfTheTestbed(@TempDir Path state) throws Exception {
        TestbedSpec spec = TestbedSpec.of("w", 3, 100_000_000L);
        var ports = new TestbedPorts().ports(spec);
        assertEquals(6, ports.size(), "three switch ports and three host NICs");
        assertEquals(new io.saba.controller.fabric.linux.LinuxPort("saba-w-sw", "p2", 100_000_000L),
                ports.get(new io.saba.core.alloc.PortId(TestbedSpec.SWITCH, 2)));
        assertEquals(new io.saba.controller.fabric.linux.LinuxPort("saba-w-h3", TestbedSpec.HOST_DEVICE, 100_000_000L),
                ports.get(new io.saba.core.alloc.PortId("h3", 0)));
    }

    @Test
    void theTestbedsTopologyFileLoadsWithTheSwitchPortsTheBackendResolves(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("topology.yaml");
        Files.writeString(topo, TopologyFile.render(TestbedSpec.of("w", 4, 100_000_000L)));
        TopologyResolver t = TopologyLoader.load(topo);
        assertEquals("h3", t.hostOf("10.77.0.3").orElseThrow());
        assertEquals(4, t.topology().hosts().size());

        // A controller configuration naming the backend and the file, as examples/testbed-controller.yaml does.
        Path cfg = dir.resolve("controller.yaml");
        Files.writeString(cfg, """
                listen: 127.0.0.1:0
                topology: {file: topology.yaml}
                c-saba: 1.0
                backend: linux
                backend-options: {ports: "sw:1=saba-w-sw/p1@100mbit, h2:0=saba-w-h2/eth0@100mbit"}
                """);
        try (EmbeddedController c = ControllerConfig.load(cfg)) {
            assertInstanceOf(LinuxTcBackend.class, c.backend());
        }
    }
}
