package io.saba.controller.state;

import io.saba.client.AppSpec;
import java.util.List;

/**
 * Every change to the controller's state, as applied live and as replayed from the journal: one code path for
 * both, so a restart rebuilds exactly what was acknowledged.
 */
public sealed interface Mutation {
    String appId();

    /**
     * A registration. A blank workload is {@link AppSpec#DEFAULT_WORKLOAD}, as in every client: it gets the default
     * model like any unknown key. Normalised here, where live requests, journal replay and a group's log all pass, so
     * no plan ever sees a blank workload (the planner names its clusters after workloads).
     */
    record Register(String appId, String workload, String framework, String user, int attempt, String tenant)
            implements Mutation {
        public Register {
            workload = AppSpec.workloadOrDefault(workload);
        }
    }

    /** Deregistration, lease expiry or replacement: the reason is for logs and the journal. */
    record Deregister(String appId, String reason) implements Mutation {
    }

    record Opened(String appId, ConnectionKey key, long seq) implements Mutation {
    }

    record Closed(String appId, ConnectionKey key, long seq) implements Mutation {
    }

    record Sync(String appId, List<ConnectionKey> open, long seq) implements Mutation {
        public Sync {
            open = List.copyOf(open);
        }
    }
}
