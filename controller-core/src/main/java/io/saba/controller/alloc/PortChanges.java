package io.saba.controller.alloc;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Set;

/** One recomputation's effect on the fabric: ports (re)configured and ports returned to their default. */
public record PortChanges(long version, List<PortAllocation> changed, Set<PortId> released) {
    public PortChanges {
        changed = List.copyOf(changed);
        released = Set.copyOf(released);
    }
}
