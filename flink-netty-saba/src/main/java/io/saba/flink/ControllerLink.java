package io.saba.flink;

import io.saba.client.SabaClient;
import io.saba.controller.server.EmbeddedController;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager's way to the controller: a {@link SabaClient} to the configured address, or to a controller this
 * object starts in-process when no address is configured (and stops on {@link #close()}).
 */
final class ControllerLink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerLink.class);

    private final EmbeddedController embedded;
    private final SabaClient client;
    private final String target;

    private ControllerLink(EmbeddedController embedded, SabaClient client, String target) {
        this.embedded = embedded;
        this.client = client;
        this.target = target;
    }

    static ControllerLink open(SabaSettings s) {
        if (s.controllerAddress() != null) {
            LOG.info("Saba: jobs register with the controller at {}", s.controllerAddress());
            return new ControllerLink(null, SabaClient.connect(s.clientConfig(s.controllerAddress())),
                    s.controllerAddress());
        }
        EmbeddedController c = embedded(s);
        LOG.info("Saba: started an embedded controller at {} ({})", c.target(),
                s.embeddedConfig() == null ? "default: dry-run, this machine as one host" : s.embeddedConfig());
        return new ControllerLink(c, SabaClient.connect(s.clientConfig(c.target())), c.target());
    }

    private static EmbeddedController embedded(SabaSettings s) {
        try {
            return EmbeddedController.inProcess(s.embeddedConfig(), null, null);
        } catch (IOException e) {
            throw new UncheckedIOException(SabaOptions.EMBEDDED_CONFIG.key() + ": cannot read "
                    + s.embeddedConfig(), e);
        } catch (IllegalArgumentException e) {
            throw SabaSettings.bad(SabaOptions.EMBEDDED_CONFIG, e.getMessage());
        }
    }

    SabaClient client() {
        return client;
    }

    String target() {
        return target;
    }

    @Override
    public void close() {
        client.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
