package io.saba.controller.fabric;

import io.saba.core.alloc.PortId;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of one push: ports configured, and ports that failed with the reason (they keep their previous
 * configuration).
 */
public record ApplyResult(Set<PortId> applied, Map<PortId, String> failed) {
    public ApplyResult {
        applied = Set.copyOf(applied);
        failed = Map.copyOf(failed);
    }

    public boolean ok() {
        return failed.isEmpty();
    }
}
