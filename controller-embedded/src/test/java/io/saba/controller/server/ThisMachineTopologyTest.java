package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code topology: this-machine}: what an embedded controller assumes without a topology, written in a controller
 * YAML, so that a file that only adds a table or a setting keeps that default.
 */
class ThisMachineTopologyTest {
    @Test
    void thisMachineIsOneHostByEveryAddressItHas(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("saba.yaml"), "listen: 127.0.0.1:0\ntopology: this-machine\n"
                + "level-per: application\n");
        try (EmbeddedController c = ControllerConfig.load(dir.resolve("saba.yaml"))) {
            c.start();
            assertEquals(Optional.of("local"), c.controller().resolver().hostOf("127.0.0.1"));
            assertTrue(c.controller().resolver().path("local", "local").isEmpty(), "a host talking to itself "
                    + "crosses no port");
        }
    }

    @Test
    void anotherWordIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "topology: localhost\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ControllerConfig.load(dir.resolve("bad.yaml")));
        assertTrue(e.getMessage().endsWith("bad.yaml: topology 'localhost' is not this-machine; give a shape, a file, "
                + "discover or from-agents"), e.getMessage());
    }
}
