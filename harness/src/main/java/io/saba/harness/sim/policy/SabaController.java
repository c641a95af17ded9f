package io.saba.harness.sim.policy;

import java.util.List;

/**
 * The allocation step of a Saba controller, as the simulator calls it whenever applications come or go. Pure:
 * the same apps give the same plan. Implementations are thread-safe (one is shared by a whole campaign).
 */
@FunctionalInterface
public interface SabaController {
    SabaPlan plan(List<AppPresence> apps);
}
