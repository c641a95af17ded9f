package io.saba.controller.fabric;

import io.saba.core.alloc.PortId;
import java.time.Instant;
import java.util.Map;

/**
 * One push to the fabric and how it ended, for the status pages: when it ended, the allocation version it made,
 * how many ports took their new configuration or were released, and the ports that refused it, each with the
 * backend's reason (they keep their previous configuration and are retried, see {@link PortRetry}).
 */
public record PushOutcome(Instant at, long version, int configured, int released, Map<PortId, String> failed) {
    public PushOutcome {
        failed = Map.copyOf(failed);
    }

    public boolean ok() {
        return failed.isEmpty();
    }
}
