package org.apache.spark.shuffle.saba;

import io.saba.controller.server.EmbeddedController;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Starts the controller inside the driver when no {@code spark.saba.controller.address} is given (the way to try
 * Saba on one machine), through the controller's one in-process entry point: a loopback, memory-only, dry-run
 * controller over {@code spark.saba.embedded.topology} (default: this machine as one host).
 */
final class EmbeddedControllerLauncher {
    private EmbeddedControllerLauncher() {
    }

    static EmbeddedController start(SabaConf conf) {
        try {
            return EmbeddedController.inProcess(null, conf.embeddedTopology(), conf.embeddedTable());
        } catch (IOException e) {
            throw new UncheckedIOException("Saba: cannot start the embedded controller", e);
        }
    }
}
