package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything one allocation decides: the applications' priority levels, the levels' centroids, and the queue map
 * and weights of every switch output port that some connection crosses.
 *
 * <p>Note that {@link PortAllocation} holds an array, so compare port allocations with
 * {@link Allocator#sameAllocation(PortAllocation, PortAllocation)}, not {@code equals}.
 *
 * @param levelOfApp     application id → priority level (1..S-1)
 * @param levelCentroids level → centroid model
 * @param ports          crossed port → its allocation (sorted by port)
 */
public record AllocationResult(Map<String, Integer> levelOfApp, Map<Integer, SensitivityModel> levelCentroids,
                               Map<PortId, PortAllocation> ports) {
    public AllocationResult {
        levelOfApp = Collections.unmodifiableMap(new TreeMap<>(levelOfApp));
        levelCentroids = Collections.unmodifiableMap(new TreeMap<>(levelCentroids));
        ports = Collections.unmodifiableMap(new TreeMap<>(ports));
    }
}
