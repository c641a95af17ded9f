package io.saba.flink;

import io.saba.client.SabaClient;
import io.saba.controller.ControllerConfig;
import io.saba.controller.EmbeddedController;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.topology.Topologies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
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

    /**
     * Connects, and warms the way to the controller in the background: a fresh JVM's first call pays for the
     * channel's set-up and class loading (1.2–1.7 s in a JobManager on a 2-core machine), which would otherwise fall
     * on the cluster's first job and outlast {@code saba.controller.register-wait}.
     */
    static ControllerLink open(SabaSettings s) {
        EmbeddedController embedded = null;
        String target = s.controllerAddress();
        if (target == null) {
            embedded = embedded(s);
            embedded.start();
            target = embedded.target();
            LOG.info("Saba: started an embedded controller at {} ({})", target,
                    s.embeddedConfig() == null ? "default: dry-run, one host 127.0.0.1" : s.embeddedConfig());
        } else {
            LOG.info("Saba: jobs register with the controller at {}", target);
        }
        SabaClient client = SabaClient.connect(s.clientConfig(target));
        client.warmUp();
        return new ControllerLink(embedded, client, target);
    }

    private static EmbeddedController embedded(SabaSettings s) {
        if (s.embeddedConfig() != null) {
            try {
                return ControllerConfig.load(s.embeddedConfig());
            } catch (IOException e) {
                throw new UncheckedIOException(SabaOptions.EMBEDDED_CONFIG.key() + ": cannot read "
                        + s.embeddedConfig(), e);
            } catch (IllegalArgumentException e) {
                throw SabaSettings.bad(SabaOptions.EMBEDDED_CONFIG, e.getMessage());
            }
        }
        // a single machine (MiniCluster, a one-host trial): every TaskManager is 127.0.0.1
        TopologyResolver one = new TopologyResolver(Topologies.singleSwitch(1, 10, 8),
                Map.of("h1", List.of("127.0.0.1")));
        return EmbeddedController.builder().topology(one).build();
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
