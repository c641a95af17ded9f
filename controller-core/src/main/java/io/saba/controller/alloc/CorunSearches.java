package io.saba.controller.alloc;

import io.saba.core.corun.CorunAllocator;
import io.saba.core.corun.CorunProfile;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The co-run predictor's weight searches, remembered: a search replays the applications' records thousands of times,
 * and its answer depends only on the profiles, the starting weights, C_Saba and the floor. Every port a set of
 * applications crosses together asks the same question, and so does every simulated setup that draws the same
 * workloads; one instance may serve many {@link CorunWeighting}s (the simulator shares one across its runs). Bounded
 * (least recently used first out) and thread-safe; a search runs outside the lock, so ports decided in parallel do
 * not wait for each other.
 */
public final class CorunSearches {
    /** Distinct sets of profiles remembered. */
    static final int REMEMBERED = 4096;

    private record Key(List<CorunProfile> profiles, List<Double> start, double capacity, double floor) {
    }

    private final Map<Key, CorunAllocator.Decision> known = Collections.synchronizedMap(
            new LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, CorunAllocator.Decision> eldest) {
                    return size() > REMEMBERED;
                }
            });

    /** {@link CorunAllocator#choose} from one starting point (Eq. 2's weights), all applications at the start. */
    public CorunAllocator.Decision choose(List<CorunProfile> profiles, double capacity, double floor, double[] start) {
        Key key = new Key(List.copyOf(profiles), Arrays.stream(start).boxed().toList(), capacity, floor);
        CorunAllocator.Decision d = known.get(key);
        if (d == null) {
            d = CorunAllocator.choose(profiles, capacity, floor, null, List.of(start));
            known.put(key, d);
        }
        return d;
    }
}
