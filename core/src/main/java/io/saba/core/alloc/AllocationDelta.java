package io.saba.core.alloc;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one event changed: the ports whose allocation is new or different (to push to the fabric), and the ports
 * no Saba application crosses any more (to reset to the default configuration).
 *
 * @param changed  port → its new allocation
 * @param released ports left with no Saba traffic
 */
public record AllocationDelta(Map<PortId, PortAllocation> changed, Set<PortId> released) {
    public AllocationDelta {
        changed = Collections.unmodifiableMap(new TreeMap<>(changed));
        released = Collections.unmodifiableSet(new TreeSet<>(released));
    }

    /** A delta that changes nothing. */
    public static AllocationDelta none() {
        return new AllocationDelta(Map.of(), Set.of());
    }

    /** Whether the event changed nothing the fabric needs to hear about. */
    public boolean isEmpty() {
        return changed.isEmpty() && released.isEmpty();
    }
}
