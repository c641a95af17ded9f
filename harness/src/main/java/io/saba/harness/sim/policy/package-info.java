/**
 * The bandwidth-sharing policies the paper compares: per-flow max-min (the InfiniBand baseline), ideal max-min
 * (one round-robin queue per application), Saba (per-port weighted queues from the core's allocation), and the
 * Homa-like and Sincronia-like priority schedulers. Each is a {@link io.saba.harness.sim.engine.SharingPolicy};
 * the engine never branches on which one runs.
 */
package io.saba.harness.sim.policy;
