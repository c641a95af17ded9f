package io.saba.harness.sim.policy;

import java.util.List;

/**
 * What the simulator's {@link SabaPolicy} asks whenever applications come or go: Saba's plan for the applications
 * present. {@link ControllerPlanner} answers with the controller's own allocation pipeline; tests may fix a plan by
 * hand. Pure: the same apps give the same plan. Implementations are thread-safe (one is shared by a whole campaign).
 */
@FunctionalInterface
public interface SabaPlanner {
    SabaPlan plan(List<AppPresence> apps);
}
