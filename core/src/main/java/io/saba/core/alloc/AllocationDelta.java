package io.saba.core.alloc;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one event changed: the ports whose allocation is new or different (to push to the fabric), the ports no
 * Saba application crosses any more (to reset to the default configuration), and the applications whose priority
 * level is new or moved (re-clustering on register/deregister can renumber other applications' levels; their
 * libraries must be told, or their packets carry stale levels).
 *
 * @param changed      port → its new allocation
 * @param released     ports left with no Saba traffic
 * @param levelChanges application id → its new level, for every application whose level is new or different
 */
public record AllocationDelta(Map<PortId, PortAllocation> changed, Set<PortId> released,
                              Map<String, Integer> levelChanges) {
    public AllocationDelta {
        changed = Collections.unmodifiableMap(new TreeMap<>(changed));
        released = Collections.unmodifiableSet(new TreeSet<>(released));
        levelChanges = Collections.unmodifiableMap(new TreeMap<>(levelChanges));
    }

    /** A delta that changes nothing. */
    public static AllocationDelta none() {
        return new AllocationDelta(Map.of(), Set.of(), Map.of());
    }

    /** Whether the event changed nothing the fabric or any library needs to hear about. */
    public boolean isEmpty() {
        return changed.isEmpty() && released.isEmpty() && levelChanges.isEmpty();
    }
}
