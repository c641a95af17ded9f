package org.apache.spark.shuffle.saba;

import io.saba.controller.server.EmbeddedController;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.state.AppView;
import io.saba.core.model.SensitivityModel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

/** A real controller on loopback for the tests, and polling helpers (no timing assertions, only deadlines). */
final class Fixtures {
    private Fixtures() {
    }

    /**
     * A controller whose table knows a sensitive workload ("lr") and an insensitive one ("wc"), so two applications
     * running them get different levels; this machine is one topology host.
     */
    static EmbeddedController controller() {
        return controller(false);
    }

    /** The same, with its status page ({@code /status.json}) on an ephemeral loopback port when {@code http}. */
    static EmbeddedController controller(boolean http) {
        EmbeddedController.Builder b = builder();
        if (http) {
            b.http(new InetSocketAddress("127.0.0.1", 0));
        }
        return started(b);
    }

    /** The same on a given loopback port, so that a controller can be restarted where its clients look for it. */
    static EmbeddedController controllerOn(int port) {
        return started(builder().listen(new InetSocketAddress("127.0.0.1", port)));
    }

    private static EmbeddedController.Builder builder() {
        ModelCatalog table = new ModelCatalog(Map.of("lr", SensitivityModel.of(5, -8, 4),
                "wc", SensitivityModel.of(1.2, -0.2)));
        return EmbeddedController.builder().topology(EmbeddedController.thisMachine()).table(table).grpcThreads(2);
    }

    private static EmbeddedController started(EmbeddedController.Builder b) {
        EmbeddedController c = b.build();
        c.start();
        return c;
    }

    static AppView app(EmbeddedController c, String appId) {
        return c.controller().app(appId);
    }

}
