package io.saba.controller.state;

import io.saba.controller.estimate.ModelSource;
import io.saba.core.model.SensitivityModel;
import io.saba.wire.ConnectionKey;
import java.util.List;

/**
 * An immutable copy of an application's record for status pages and the Status RPC; {@code unrouted} of its
 * {@code connections} wait for a route the fabric does not have yet; {@code modelSource} says where the model it
 * is allocated with comes from, and {@code model} is that model.
 */
public record AppView(String appId, String workload, String framework, String user, int attempt, String tenant,
                      int level, boolean workloadKnown, ModelSource modelSource,
                      SensitivityModel model, int connections, int unrouted,
                      long leaseRemainingMillis, List<ConnectionKey> open) {
}
