package io.saba.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import org.junit.jupiter.api.Test;

class TopologyFileTest {
    @Test
    void rendersHostsAndTheSwitchPorts() throws Exception {
        String y = TopologyFile.render(TestbedSpec.of("t", 2, 100_000_000L));
        assertTrue(y.startsWith("# Saba testbed 't', written by `saba testbed up`.\n# Host hN is network namespace "
                + "saba-t-hN"), y);
        YAMLMapper yaml = new YAMLMapper();
        assertEquals(yaml.readTree("""
                hosts:
                  - name: h1
                    addresses: [10.77.0.1]
                  - name: h2
                    addresses: [10.77.0.2]
                switches:
                  - name: sw
                    queues: 8
                links:
                  - {a: h1, a-port: 0, b: sw, b-port: 1, gbps: 0.1}
                  - {a: h2, a-port: 0, b: sw, b-port: 2, gbps: 0.1}
                """), yaml.readTree(y), y);
    }

    @Test
    void theControllerReadsTheFile() throws Exception {
        TopologyResolver topo = TopologyLoader.fromNode(
                new YAMLMapper().readTree(TopologyFile.render(TestbedSpec.of("t", 3, 10_000_000_000L))), "t", null);
        assertEquals(java.util.Set.of("10.77.0.1", "10.77.0.2", "10.77.0.3"), topo.addresses().keySet());
    }

    @Test
    void gbpsIsAPlainDecimal() {
        assertEquals("0.1", TopologyFile.gbps(100_000_000L));
        assertEquals("10", TopologyFile.gbps(10_000_000_000L));
        assertEquals("0.0255", TopologyFile.gbps(25_500_000L));
    }

    @Test
    void specRefusesPublicSubnetsAndBadNames() {
        assertThrows(IllegalArgumentException.class, () -> new TestbedSpec("t", 2, 1_000_000L, "8.8.8"));
        assertThrows(IllegalArgumentException.class, () -> new TestbedSpec("T;rm", 2, 1_000_000L, "10.77.0"));
        assertThrows(IllegalArgumentException.class, () -> TestbedSpec.of("t", 1, 1_000_000L));
        TestbedSpec s = TestbedSpec.of("t", 3, 1_000_000L);
        assertEquals("saba-t-h3", s.namespaceOf("h3"));
        assertEquals("saba-t-sw", s.namespaceOf("sw"));
        assertThrows(IllegalArgumentException.class, () -> s.namespaceOf("h4"));
    }
}
