package io.saba.harness.sim.engine;

import io.saba.harness.sim.network.FlowNetwork;

/** Makes a fresh policy for one simulation; factories are immutable and shared across threads. */
@FunctionalInterface
public interface PolicyFactory {
    SharingPolicy create(FlowNetwork network);
}
