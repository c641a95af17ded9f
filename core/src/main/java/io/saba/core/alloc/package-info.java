/**
 * Bandwidth allocation, the pipeline every user of it runs ({@link io.saba.core.alloc.Allocator}): levels per
 * workload when the workloads change ({@link io.saba.core.alloc.LevelPlan}), then per port the applications
 * grouped by model, their weights from a {@link io.saba.core.alloc.PortWeightDecision} (Eq. 2 by default), and
 * their levels fitted into the port's queues ({@link io.saba.core.alloc.PortAllocation}). The controller runs it
 * incrementally (only the ports an event touches), a controller group's leader plans levels for every member, and
 * the simulator runs it at every job arrival and departure.
 *
 * <p><b>Queues.</b> On every port queue 0 is the default class's: level 0 (unregistered traffic, control traffic,
 * latency-critical services) maps to it and it is given the part of the link Saba does not own, 1 - C_Saba. Saba's
 * priority levels are fitted into queues 1..Q-1 by {@link io.saba.core.cluster.LevelHierarchy}; a queue's weight is
 * the sum of the weights of the applications whose levels map to it, so Saba's queues sum to C_Saba. With
 * C_Saba = 1 the default queue's weight is 0, and it is up to the fabric to keep such a queue from starving.
 */
package io.saba.core.alloc;
