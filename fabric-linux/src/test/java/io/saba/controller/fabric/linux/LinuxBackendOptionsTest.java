package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.PortId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LinuxBackendOptionsTest {
    @Test
    void explicitPortsParse() {
        assertEquals(new PortId("h1", 0), LinuxBackendOptions.portId("h1:0"));
        assertEquals(new LinuxPort(null, "eth0", 10_000_000_000L), LinuxBackendOptions.port("h1:0", "eth0@10gbit"));
        assertEquals(new LinuxPort("saba-tb-sw", "p1", 100_000_000L),
                LinuxBackendOptions.port("sw:1", "saba-tb-sw/p1@100mbit"));
        try (LinuxTcBackend b = LinuxBackendOptions.create(Map.of("ports", Map.of("h1:0", "eth0@1gbit"),
                "c-saba", "0.9"))) {
            assertEquals("linux", b.name());
            assertTrue(b.countsQueueBytes(), "counted unless switched off");
            assertEquals(HtbPlan.DEFAULT_BUFFER_SECONDS, b.bufferSeconds());
        }
        try (LinuxTcBackend b = LinuxBackendOptions.create(Map.of("ports", "h1:0=eth0@1gbit", "buffer-ms", "30"))) {
            assertEquals(0.030, b.bufferSeconds(), 1e-12);
        }
        try (LinuxTcBackend b = LinuxBackendOptions.create(Map.of("ports", "h1:0=eth0@1gbit", "count-queues", "false"))) {
            assertFalse(b.countsQueueBytes());
            assertEquals(Map.of(), b.queueBytes(new PortId("h1", 0)));
        }
        try (LinuxTcBackend b = LinuxBackendOptions.create(Map.of("ports", "h1:0=eth0@1gbit, sw:2=saba-x-sw/p2@100mbit"))) {
            assertEquals("linux", b.name());
        }
        assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.create(Map.of("ports", "h1:0")));
    }

    @Test
    void mistakesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LinuxBackendOptions.port("h1:0", "eth0"));
        assertTrue(e.getMessage().contains("needs a rate"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.portId("h1"));
        assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.create(Map.of()));
        e = assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.create(Map.of("ports",
                "h1:0=eth0@1gbit", "count-queues", "yes")));
        assertEquals("backend-options.count-queues must be true or false, got 'yes'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.create(Map.of("ports",
                "h1:0=eth0@1gbit", "buffer-ms", "deep")));
        assertEquals("backend-options.buffer-ms must be a number of milliseconds, got 'deep'", e.getMessage());
        for (String bad : new String[] {"0", "-5", "2000"}) {
            e = assertThrows(IllegalArgumentException.class, () -> LinuxBackendOptions.create(Map.of("ports",
                    "h1:0=eth0@1gbit", "buffer-ms", bad)));
            assertTrue(e.getMessage().startsWith("backend-options.buffer-ms must be a time in (0, 1000] ms"),
                    e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Rates.parse("fast"));
        assertEquals(2_500_000L, Rates.parse("2.5Mbit"));
    }
}
