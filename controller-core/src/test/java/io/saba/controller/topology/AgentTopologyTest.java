package io.saba.controller.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.controller.ConfigBinding;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AgentNic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hosts learned from announcements: paths, refusals that change nothing, the state file across a restart. */
class AgentTopologyTest {
    @TempDir
    Path dir;

    private static JsonNode section(String yaml) {
        JsonNode n = ConfigBinding.readTree(yaml, "test");
        TopologyLoader.check(n, "test", "topology");
        return n;
    }

    private AgentTopology single(String extra) throws Exception {
        return AgentTopology.fromNode(section("{from-agents: {switch: tor1, queues: 4" + extra + "}, host-queues: 8}"),
                "test", dir, dir.resolve("journal"));
    }

    private static List<AgentNic> nic(long bps, String... ips) {
        return List.of(AgentNic.newBuilder().setName("eth0").setLinkRateBps(bps).addAllAddresses(List.of(ips))
                .build());
    }

    @Test
    void hostsJoinAsTheyAnnounceAndAreKeptAcrossARestart() throws Exception {
        AgentTopology t = single("");
        AtomicInteger changes = new AtomicInteger();
        t.onPathsChanged(changes::incrementAndGet);
        assertEquals(Set.of(), t.hosts());
        assertTrue(t.mayResolveLater("10.0.0.1"), "an address may belong to a host not announced yet");
        assertFalse(t.mayResolveLater("127.0.0.1"));
        assertEquals(4, t.minQueues());

        assertTrue(t.announce("h1", nic(10_000_000_000L, "10.0.0.1", "fe80::1", "127.0.0.1")).contains("joined"));
        assertTrue(t.announce("h2", nic(25_000_000_000L, "10.0.0.2")).contains("joined"));
        assertNull(t.announce("h1", nic(10_000_000_000L, "10.0.0.1")), "the same NIC again changes nothing");
        assertEquals(2, changes.get());
        assertEquals(Optional.of("h1"), t.hostOf("10.0.0.1"));
        assertEquals(Optional.empty(), t.hostOf("fe80::1"), "link-local addresses are not learned");
        assertEquals(List.of(new PortId("h1", 1), new PortId("tor1", 2)), t.path("h1", "h2"));
        assertEquals(25.0, t.capacityGbps(new PortId("tor1", 2)).getAsDouble(), 1e-9);
        assertEquals(8, t.queues(new PortId("h1", 1)));
        assertEquals(4, t.queues(new PortId("tor1", 1)));

        Path kept = dir.resolve("journal").resolve(AgentTopology.STATE_FILE);
        TopologyResolver file = TopologyLoader.load(kept);
        assertEquals(Set.of("h1", "h2"), file.topology().hosts(), "the state file is a topology file");
        assertEquals(8, file.hostEgressQueues());

        AgentTopology again = single("");
        assertEquals(Set.of("h1", "h2"), again.hosts());
        assertEquals(t.path("h2", "h1"), again.path("h2", "h1"), "switch ports are kept across a restart");
        assertTrue(again.announce("h3", nic(10_000_000_000L, "10.0.0.3")).contains("joined"));
        assertEquals(List.of(new PortId("h3", 1), new PortId("tor1", 1)), again.path("h3", "h1"));
        assertEquals(new PortId("tor1", 3), again.path("h1", "h3").get(1), "a new host takes the next port");
    }

    @Test
    void refusalsSayWhyAndChangeNothing() throws Exception {
        AgentTopology t = single("");
        t.announce("h1", nic(10_000_000_000L, "10.0.0.1"));
        String before = Files.readString(dir.resolve("journal").resolve(AgentTopology.STATE_FILE));

        IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                () -> t.announce("h2", nic(10_000_000_000L, "10.0.0.2", "10.0.0.1")));
        assertEquals("host h2 announced address 10.0.0.1, which host h1 owns", taken.getMessage());
        IllegalArgumentException noRate = assertThrows(IllegalArgumentException.class,
                () -> t.announce("h2", nic(0, "10.0.0.2")));
        assertTrue(noRate.getMessage().contains("rate-gbps"), noRate.getMessage());
        IllegalArgumentException twoNics = assertThrows(IllegalArgumentException.class, () -> t.announce("h2",
                List.of(nic(1, "10.0.0.2").get(0), AgentNic.newBuilder().setName("eth1").build())));
        assertTrue(twoNics.getMessage().contains("one NIC per host"), twoNics.getMessage());
        assertThrows(IllegalArgumentException.class, () -> t.announce("h2", nic(1, "127.0.0.1")));

        assertEquals(Set.of("h1"), t.hosts());
        assertEquals(Optional.empty(), t.hostOf("10.0.0.2"));
        assertEquals(before, Files.readString(dir.resolve("journal").resolve(AgentTopology.STATE_FILE)));

        // a changed NIC is taken: addresses come as the machine boots
        assertTrue(t.announce("h1", nic(10_000_000_000L, "10.0.0.1", "fd00::1")).contains("changed"));
        assertEquals(Optional.of("h1"), t.hostOf("fd00:0:0:0:0:0:0:1"));
    }

    @Test
    void aVirtualNicTakesTheConfiguredRate() throws Exception {
        AgentTopology t = single(", rate-gbps: 0.1");
        t.announce("h1", nic(0, "10.0.0.1"));
        t.announce("h2", nic(0, "10.0.0.2"));
        assertEquals(0.1, t.capacityGbps(new PortId("h1", 1)).getAsDouble(), 1e-12);
    }

    @Test
    void hostsHangUnderTheSwitchTheFabricFileNames() throws Exception {
        Files.writeString(dir.resolve("fabric.yaml"), """
                switches: [{name: spine, queues: 8}, {name: leaf1, queues: 8}, {name: leaf2, queues: 8}]
                links: [{a: leaf1, b: spine, gbps: 40}, {a: leaf2, b: spine, gbps: 40}]
                """);
        AgentTopology t = AgentTopology.fromNode(section(
                "{from-agents: {fabric: fabric.yaml, under: {h1: leaf1, h2: leaf2}}, host-queues: 8}"), "test", dir,
                null);
        t.announce("h1", nic(10_000_000_000L, "10.0.0.1"));
        t.announce("h2", nic(10_000_000_000L, "10.0.0.2"));
        assertEquals(List.of("h1", "leaf1", "spine", "leaf2"), t.path("h1", "h2").stream().map(PortId::node)
                .toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.announce("h3", nic(10_000_000_000L, "10.0.0.3")));
        assertEquals("host h3 is under no switch: topology.from-agents.under names [h1, h2]", e.getMessage());
    }

    @Test
    void fromAgentsWithAFileOrUnknownKeysIsRefused() {
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> section("{from-agents: {switch: tor1}, file: cluster.yaml}"));
        assertEquals("test: topology: give 'from-agents' (hosts learned from their agents) or 'file', not both",
                both.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> section("{from-agents: {switch: tor1, rate: 10}}"));
        assertTrue(unknown.getMessage().startsWith("test: unknown key 'topology.from-agents.rate'"),
                unknown.getMessage());
    }
}
