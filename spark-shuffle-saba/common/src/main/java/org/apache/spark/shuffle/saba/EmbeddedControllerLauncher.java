package org.apache.spark.shuffle.saba;

import io.saba.controller.server.EmbeddedController;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Starts the controller inside the driver when no {@code spark.saba.controller.address} is given (the way to try
 * Saba on one machine), through the controller's one in-process entry point, as Flink's JobManager does: the
 * controller {@code spark.saba.controller.embedded-config} describes (a controller YAML, the standalone controller's
 * format), else a loopback, memory-only, dry-run controller with this machine as its one host.
 */
final class EmbeddedControllerLauncher {
    private EmbeddedControllerLauncher() {
    }

    static EmbeddedController start(SabaConf conf) {
        try {
            return EmbeddedController.inProcess(conf.embeddedConfig(), null, null);
        } catch (IOException e) {
            throw new UncheckedIOException(SabaConf.EMBEDDED_CONFIG + ": cannot start the embedded controller from "
                    + (conf.embeddedConfig() == null ? "the default" : conf.embeddedConfig()), e);
        } catch (IllegalArgumentException e) {
            // a malformed YAML: name the key, as for any bad value
            throw new IllegalArgumentException(SabaConf.EMBEDDED_CONFIG + ": " + e.getMessage(), e);
        }
    }
}
