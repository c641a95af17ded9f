package io.saba.flink;


import io.saba.controller.server.EmbeddedController;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.state.AppView;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topologies;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.JobID;

/**
 * A real controller on loopback, with its status pages, whose one host is 127.0.0.1 (every MiniCluster TaskManager),
 * two workloads.
 */
final class Controllers {
    private Controllers() {
    }

    static EmbeddedController start() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        m.put("lr", SensitivityModel.of(5, -8, 4));
        m.put("wc", SensitivityModel.of(1.2, -0.2));
        EmbeddedController c = EmbeddedController.builder()
                .topology(new TopologyResolver(Topologies.singleSwitch(1, 10, 8), Map.of("h1", List.of("127.0.0.1"))))
                .table(new ModelCatalog(m))
                .backend(new DryRunBackend(false, 10_000), true)
                .leaseTimeout(Duration.ofSeconds(60))
                .grpcThreads(2)
                .http(new InetSocketAddress("127.0.0.1", 0)) // the status pages, on a free port
                .build();
        c.start();
        return c;
    }

    static AppView app(EmbeddedController c, JobID job) {
        return c.controller().app(job.toHexString());
    }

    /** How long a test waits for a cluster or the controller to get somewhere (await(...).atMost). */
    static final java.time.Duration PATIENCE = java.time.Duration.ofMinutes(2);
}
