package io.saba.harness.sim.policy;

import java.util.List;

/**
 * What the simulator's {@link SabaPolicy} asks whenever applications come or go: Saba's plan for the applications
 * present. {@link ControllerPlanner} answers with the controller's own allocation pipeline; tests may fix a plan by
 * hand. Pure within a run: the same history of apps gives the same plans; {@link #fresh()} gives each run its own.
 */
@FunctionalInterface
public interface SabaPlanner {
    SabaPlan plan(List<AppPresence> apps);

    /** The planner one simulation run uses: this one, unless it remembers decisions from plan to plan. */
    default SabaPlanner fresh() {
        return this;
    }
}
