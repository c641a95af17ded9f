package io.saba.flink;

import io.saba.client.SabaClient;
import io.saba.controller.server.EmbeddedController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager's way to the controller: a {@link SabaClient} to the configured address, or to a controller this
 * object starts in-process when no address is configured (and stops on {@link #close()}).
 */
final class ControllerLink implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerLink.class);
    /**
     * The embedded controller running in this JVM, if any: TaskManagers that share the JobManager's JVM (a
     * MiniCluster, a local execution environment) send their tasks' work signals to it; TaskManagers of their own
     * cannot learn its address and need {@code saba.controller.address}.
     */
    private static final AtomicReference<String> EMBEDDED_HERE = new AtomicReference<>();

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
            embedded = embedded(s); // started
            target = embedded.target();
            EMBEDDED_HERE.set(target);
            LOG.info("Saba: started an embedded controller at {} ({})", target,
                    s.embeddedConfig() == null ? "default: dry-run, this machine as one host" : s.embeddedConfig());
        } else {
            LOG.info("Saba: jobs register with the controller at {}", target);
        }
        SabaClient client = SabaClient.connect(s.clientConfig(target));
        client.warmUp();
        return new ControllerLink(embedded, client, target);
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

    /** The address of an embedded controller that runs in this JVM, or null. */
    static String embeddedInThisJvm() {
        return EMBEDDED_HERE.get();
    }

    SabaClient client() {
        return client;
    }

    /** The controller this link started, or null when it connects to a configured address. */
    EmbeddedController embedded() {
        return embedded;
    }

    String target() {
        return target;
    }

    @Override
    public void close() {
        client.close();
        if (embedded != null) {
            EMBEDDED_HERE.compareAndSet(target, null);
            embedded.close();
        }
    }
}
